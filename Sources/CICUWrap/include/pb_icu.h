// A small C surface over ICU for pushbox: plural rules and locale number formatting.
// The public header has no ICU types (only plain C ones and opaque pointers) so that Swift
// modules importing Foundation can import it; see linux-notes.md.
#ifndef PB_ICU_H
#define PB_ICU_H

#include <stdint.h>

/// Opens CLDR cardinal plural rules for a locale ("ru", "ar", "pt_BR"); NULL on failure.
void *pb_plural_open(const char *locale);
/// Writes the category ("zero", "one", "two", "few", "many", "other") for n into buf, NUL
/// terminated; returns its length, or -1 on failure.
int32_t pb_plural_select(void *rules, double n, char *buf, int32_t capacity);
/// Writes the categories the locale uses, space separated, into buf; returns the length or -1.
int32_t pb_plural_keywords(void *rules, char *buf, int32_t capacity);
void pb_plural_close(void *rules);

/// Opens a decimal number formatter for a locale (grouping and the locale's digits); NULL on failure.
void *pb_number_open(const char *locale);
/// Formats n as UTF-8 into buf, NUL terminated; returns the length in bytes, or -1.
int32_t pb_number_format(void *formatter, double n, char *buf, int32_t capacity);
void pb_number_close(void *formatter);

/// Terminal columns a code point takes on its own: 2 for East Asian wide/fullwidth and emoji
/// presentation, 0 for combining marks, format characters and variation selectors, else 1.
int32_t pb_codepoint_width(uint32_t codepoint);

#endif
