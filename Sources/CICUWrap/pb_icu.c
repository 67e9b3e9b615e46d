#include "pb_icu.h"
#include "pb_icu_decls.h"
#include <stdlib.h>
#include <string.h>

/// Plural rules and the locale they belong to (decimal counts are formatted in it first).
typedef struct {
    void *rules;
    char locale[64];
} pb_plurals;

void *pb_plural_open(const char *locale) {
    pb_UErrorCode status = 0;
    void *rules = swift_uplrules_open(locale, &status);
    if (PB_U_FAILURE(status) || !rules) return NULL;
    pb_plurals *p = calloc(1, sizeof(pb_plurals));
    if (!p) { swift_uplrules_close(rules); return NULL; }
    p->rules = rules;
    strncpy(p->locale, locale, sizeof p->locale - 1);
    return p;
}

static int32_t keyword_to_utf8(const pb_UChar *keyword, int32_t length, char *buf, int32_t capacity) {
    if (length < 0 || length >= capacity) return -1;
    swift_u_UCharsToChars(keyword, buf, length);
    buf[length] = 0;
    return length;
}

int32_t pb_plural_select(void *plurals, double n, char *buf, int32_t capacity) {
    pb_UChar keyword[32];
    pb_UErrorCode status = 0;
    int32_t length = swift_uplrules_select(((pb_plurals *)plurals)->rules, n, keyword, 32, &status);
    if (PB_U_FAILURE(status)) return -1;
    return keyword_to_utf8(keyword, length, buf, capacity);
}

/// A number skeleton of exactly `fraction_digits` fraction digits ("precision-integer", ".0", ".00", …),
/// after `prefix`; returns its length in UTF-16 units.
static int32_t precision_skeleton(const char *prefix, int32_t fraction_digits, pb_UChar *skeleton) {
    int32_t length = 0;
    for (; prefix[length]; length++) skeleton[length] = (pb_UChar)prefix[length];
    if (fraction_digits <= 0) {
        const char *integer = "precision-integer";
        for (int32_t i = 0; integer[i]; i++) skeleton[length++] = (pb_UChar)integer[i];
        return length;
    }
    if (fraction_digits > 20) fraction_digits = 20;
    skeleton[length++] = '.';
    for (int32_t i = 0; i < fraction_digits; i++) skeleton[length++] = '0';
    return length;
}

int32_t pb_plural_select_decimal(void *plurals, const char *decimal, int32_t fraction_digits, char *buf, int32_t capacity) {
    pb_plurals *p = plurals;
    // Exactly the fraction digits written ("1.50" keeps v = 2), so CLDR's operands see them.
    pb_UChar skeleton[64];
    int32_t length = precision_skeleton("", fraction_digits, skeleton);
    pb_UErrorCode status = 0;
    void *formatter = swift_unumf_openForSkeletonAndLocale(skeleton, length, p->locale, &status);
    void *result = swift_unumf_openResult(&status);
    int32_t out = -1;
    if (!PB_U_FAILURE(status)) {
        swift_unumf_formatDecimal(formatter, decimal, -1, result, &status);
        pb_UChar keyword[32];
        int32_t n = swift_uplrules_selectFormatted(p->rules, result, keyword, 32, &status);
        if (!PB_U_FAILURE(status)) out = keyword_to_utf8(keyword, n, buf, capacity);
    }
    if (result) swift_unumf_closeResult(result);
    if (formatter) swift_unumf_close(formatter);
    return out;
}

int32_t pb_plural_keywords(void *plurals, char *buf, int32_t capacity) {
    pb_UErrorCode status = 0;
    void *keywords = swift_uplrules_getKeywords(((pb_plurals *)plurals)->rules, &status);
    if (PB_U_FAILURE(status)) return -1;
    int32_t used = 0;
    int32_t length = 0;
    const char *word;
    while ((word = swift_uenum_next(keywords, &length, &status)) != NULL && !PB_U_FAILURE(status)) {
        if (used + length + 2 > capacity) { swift_uenum_close(keywords); return -1; }
        if (used > 0) buf[used++] = ' ';
        memcpy(buf + used, word, (size_t)length);
        used += length;
    }
    swift_uenum_close(keywords);
    buf[used] = 0;
    return PB_U_FAILURE(status) ? -1 : used;
}

void pb_plural_close(void *plurals) {
    pb_plurals *p = plurals;
    if (!p) return;
    swift_uplrules_close(p->rules);
    free(p);
}

void *pb_number_open(const char *locale) {
    pb_UErrorCode status = 0;
    void *format = swift_unum_open(PB_UNUM_DECIMAL, NULL, 0, locale, NULL, &status);
    if (PB_U_FAILURE(status)) return NULL;
    // The locale's minimum grouping digits (es, pl: 1234 ungrouped, 12 345 grouped), as CLDR
    // and iOS write numbers. ICU 76 follows them by default (Debian's ICU 72 did not); set
    // explicitly so pushbox never depends on that default.
    swift_unum_setAttribute(format, PB_UNUM_MINIMUM_GROUPING_DIGITS, PB_UNUM_MINIMUM_GROUPING_DIGITS_AUTO);
    return format;
}

static int32_t to_utf8(const pb_UChar *text, int32_t length, char *buf, int32_t capacity) {
    pb_UErrorCode status = 0;
    int32_t written = 0;
    swift_u_strToUTF8(buf, capacity, &written, text, length, &status);
    if (PB_U_FAILURE(status) || written >= capacity) return -1;
    buf[written] = 0;
    return written;
}

int32_t pb_number_format(void *formatter, double n, char *buf, int32_t capacity) {
    pb_UChar text[128];
    pb_UErrorCode status = 0;
    int32_t length = swift_unum_formatDouble(formatter, n, text, 128, NULL, &status);
    if (PB_U_FAILURE(status) || length >= 128) return -1;
    return to_utf8(text, length, buf, capacity);
}

int32_t pb_number_format_decimal(const char *locale, const char *decimal, int32_t fraction_digits, char *buf, int32_t capacity) {
    pb_UChar skeleton[64];
    int32_t length = precision_skeleton("group-auto ", fraction_digits, skeleton);
    pb_UErrorCode status = 0;
    void *formatter = swift_unumf_openForSkeletonAndLocale(skeleton, length, locale, &status);
    void *result = swift_unumf_openResult(&status);
    int32_t out = -1;
    if (!PB_U_FAILURE(status)) {
        swift_unumf_formatDecimal(formatter, decimal, -1, result, &status);
        pb_UChar text[128];
        int32_t n = swift_unumf_resultToString(result, text, 128, &status);
        if (!PB_U_FAILURE(status) && n < 128) out = to_utf8(text, n, buf, capacity);
    }
    if (result) swift_unumf_closeResult(result);
    if (formatter) swift_unumf_close(formatter);
    return out;
}

void pb_number_close(void *formatter) {
    if (formatter) swift_unum_close(formatter);
}

int32_t pb_codepoint_width(uint32_t codepoint) {
    int32_t c = (int32_t)codepoint;
    int8_t category = swift_u_charType(c);
    if (category == PB_U_NON_SPACING_MARK || category == PB_U_ENCLOSING_MARK || category == PB_U_FORMAT_CHAR) return 0;
    if (category == PB_U_CONTROL_CHAR) return 0;  // C0 and C1 controls are never drawn
    if (swift_u_hasBinaryProperty(c, PB_UCHAR_VARIATION_SELECTOR)) return 0;
    // Hangul medial vowels and final consonants join the leading consonant's two columns.
    int32_t hst = swift_u_getIntPropertyValue(c, PB_UCHAR_HANGUL_SYLLABLE_TYPE);
    if (hst == PB_U_HST_VOWEL_JAMO || hst == PB_U_HST_TRAILING_JAMO) return 0;
    if (swift_u_hasBinaryProperty(c, PB_UCHAR_EMOJI_PRESENTATION)) return 2;
    int32_t eaw = swift_u_getIntPropertyValue(c, PB_UCHAR_EAST_ASIAN_WIDTH);
    if (eaw == PB_U_EA_WIDE || eaw == PB_U_EA_FULLWIDTH) return 2;
    return 1;
}

int32_t pb_localizations_to_use(const char *const *preferred, int32_t preferred_count, const char *const *available,
                                int32_t available_count, int32_t *chosen, int32_t capacity) {
    enum { kMax = 64 };
    const char *use[kMax];
    pb_UErrorCode status = 0;
    int32_t n = ualoc_localizationsToUse(preferred, preferred_count, available, available_count, use,
                                         capacity < kMax ? capacity : kMax, &status);
    if (PB_U_FAILURE(status) || n < 0) return -1;
    // The results point into `available`: give them back as indexes.
    int32_t out = 0;
    for (int32_t i = 0; i < n; i++) {
        for (int32_t j = 0; j < available_count; j++) {
            if (use[i] == available[j]) { chosen[out++] = j; break; }
        }
    }
    return out;
}

int32_t pb_line_breaks(const uint16_t *text, int32_t length, const char *locale, int32_t *breaks, int32_t capacity) {
    pb_UErrorCode status = 0;
    void *bi = swift_ubrk_open(PB_UBRK_LINE, locale, text, length, &status);
    if (PB_U_FAILURE(status) || !bi) return -1;
    int32_t n = 0;
    for (int32_t b = swift_ubrk_next(bi); b != PB_UBRK_DONE && n < capacity; b = swift_ubrk_next(bi)) breaks[n++] = b;
    swift_ubrk_close(bi);
    return n;
}

int32_t pb_bidi_visual(const uint16_t *text, int32_t length, int right_to_left, uint16_t *out, int32_t capacity) {
    pb_UErrorCode status = 0;
    void *bidi = swift_ubidi_open();
    if (!bidi) return -1;
    swift_ubidi_setPara(bidi, text, length, right_to_left ? PB_UBIDI_RTL : PB_UBIDI_LTR, NULL, &status);
    int32_t n = PB_U_FAILURE(status) ? -1 : swift_ubidi_writeReordered(bidi, out, capacity, PB_UBIDI_DO_MIRRORING | PB_UBIDI_KEEP_BASE_COMBINING, &status);
    swift_ubidi_close(bidi);
    return PB_U_FAILURE(status) ? -1 : n;
}

int pb_base_direction(const uint16_t *text, int32_t length) {
    int d = swift_ubidi_getBaseDirection(text, length);
    return d == PB_UBIDI_RTL ? 1 : d == PB_UBIDI_LTR ? 0 : -1;
}

void pb_icu_versions(char *icu, char *cldr) {
    pb_UVersionInfo v;
    swift_u_getVersion(v);
    swift_u_versionToString(v, icu);
    pb_UErrorCode status = 0;
    pb_UVersionInfo c = {0, 0, 0, 0};
    swift_ulocdata_getCLDRVersion(c, &status);
    swift_u_versionToString(c, cldr);
}

int32_t pb_dominant_script(const uint16_t *text, int32_t length, char *out, int32_t *in_dominant) {
    enum { LIMIT = 512 };
    int32_t counts[LIMIT] = {0};
    int32_t counted = 0;
    for (int32_t i = 0; i < length; i++) {
        int32_t c = text[i];
        if (c >= 0xD800 && c <= 0xDBFF && i + 1 < length && text[i + 1] >= 0xDC00 && text[i + 1] <= 0xDFFF) {
            c = 0x10000 + ((c - 0xD800) << 10) + (text[i + 1] - 0xDC00);
            i++;
        }
        pb_UErrorCode status = 0;
        int script = swift_uscript_getScript(c, &status);
        if (PB_U_FAILURE(status) || script <= PB_USCRIPT_INHERITED || script >= LIMIT) continue;
        counts[script]++;
        counted++;
    }
    int best = -1;
    for (int s = 0; s < LIMIT; s++) {
        if (counts[s] > 0 && (best < 0 || counts[s] > counts[best])) best = s;
    }
    if (best < 0) return 0;
    const char *name = swift_uscript_getShortName(best);
    if (!name) return 0;
    strncpy(out, name, 7);
    out[7] = 0;
    *in_dominant = counts[best];
    return counted;
}

int32_t pb_likely_script(const char *locale, char *out, int32_t capacity) {
    char maximized[157];
    pb_UErrorCode status = 0;
    swift_uloc_addLikelySubtags(locale, maximized, sizeof maximized, &status);
    if (PB_U_FAILURE(status)) return -1;
    status = 0;
    int32_t length = swift_uloc_getScript(maximized, out, capacity, &status);
    if (PB_U_FAILURE(status) || length <= 0 || length >= capacity) return -1;
    out[length] = 0;
    return length;
}
