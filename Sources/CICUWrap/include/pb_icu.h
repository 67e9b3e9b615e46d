// A small C surface over ICU for pushbox: plural rules, locale number formatting, widths.
// The ICU behind it is the Swift toolchain's own (lib_FoundationICU: ICU 76, CLDR 46), the one
// Foundation formats numbers with, so pushbox and current iOS agree (see ARCHITECTURE.md).
// The public header has no ICU types (only plain C ones and opaque pointers).
#ifndef PB_ICU_H
#define PB_ICU_H

#include <stdint.h>

/// Opens CLDR cardinal plural rules for a locale ("ru", "ar", "pt_BR"); NULL on failure.
/// ICU's version ("76.1") and its CLDR data's ("46.0") into buffers of at least 20 bytes.
void pb_icu_versions(char *icu, char *cldr);

void *pb_plural_open(const char *locale);
/// Writes the category ("zero", "one", "two", "few", "many", "other") for n into buf, NUL
/// terminated; returns its length, or -1 on failure.
int32_t pb_plural_select(void *rules, double n, char *buf, int32_t capacity);
/// Writes the categories the locale uses, space separated, into buf; returns the length or -1.
/// The category for a decimal count as written ("1.5", "1.50", "-3"): CLDR's operands count
/// the visible fraction digits (`fraction_digits` of them). Returns the length or -1.
int32_t pb_plural_select_decimal(void *rules, const char *decimal, int32_t fraction_digits, char *buf, int32_t capacity);
int32_t pb_plural_keywords(void *rules, char *buf, int32_t capacity);
void pb_plural_close(void *rules);

/// Opens a decimal number formatter for a locale (grouping and the locale's digits); NULL on failure.
void *pb_number_open(const char *locale);
/// Formats n as UTF-8 into buf, NUL terminated; returns the length in bytes, or -1.
int32_t pb_number_format(void *formatter, double n, char *buf, int32_t capacity);
void pb_number_close(void *formatter);
/// A decimal as written ("1.5"), in the locale's digits and separators with exactly
/// `fraction_digits` fraction digits; returns the UTF-8 length or -1.
int32_t pb_number_format_decimal(const char *locale, const char *decimal, int32_t fraction_digits, char *buf, int32_t capacity);

/// Terminal columns a code point takes on its own: 2 for East Asian wide/fullwidth and emoji
/// presentation, 0 for combining marks, format characters and variation selectors, else 1.
int32_t pb_codepoint_width(uint32_t codepoint);

/// The line break opportunities of UTF-16 `text` under UAX #14 for `locale` (ICU's line break
/// iterator: `ko@lw=keepall` keeps Hangul words whole), as UTF-16 offsets after each break,
/// the text's end last; at most `capacity`. Returns how many, or -1.
int32_t pb_line_breaks(const uint16_t *text, int32_t length, const char *locale, int32_t *breaks, int32_t capacity);

/// One line of UTF-16 `text` in visual order by the Unicode Bidirectional Algorithm (ICU's
/// ubidi, mirroring brackets, combining marks kept after their base), for a paragraph of base direction right-to-left or not.
/// Returns the UTF-16 length written to `out`, or -1.
int32_t pb_bidi_visual(const uint16_t *text, int32_t length, int right_to_left, uint16_t *out, int32_t capacity);

/// The direction of the first strong character of `text`: 1 right-to-left, 0 left-to-right, -1 none.
int pb_base_direction(const uint16_t *text, int32_t length);

/// Apple's choice of localizations for preferred languages (ualoc_localizationsToUse): fills
/// `chosen` with indexes into `available`, best first, then its fallbacks; returns how many
/// (0 when no preferred language matches any, -1 on an ICU error).
int32_t pb_localizations_to_use(const char *const *preferred, int32_t preferred_count, const char *const *available,
                                int32_t available_count, int32_t *chosen, int32_t capacity);

/// The script most characters of UTF-16 `text` are written in, Common and Inherited ones (digits,
/// punctuation, marks) not counted: its ISO 15924 short name ("Hang", "Latn") into `out` (at
/// least 8 bytes). Returns how many characters were counted; `in_dominant` gets how many of them
/// are in that script. 0 when none were.
int32_t pb_dominant_script(const uint16_t *text, int32_t length, char *out, int32_t *in_dominant);

/// The script `locale` is most likely written in, by CLDR's likely subtags ("ko" → "Kore",
/// "ja-JP" → "Jpan", "zh-TW" → "Hant") into `out`; returns its length, or -1.
int32_t pb_likely_script(const char *locale, char *out, int32_t capacity);

#endif
