#include "pb_icu.h"
#include <unicode/upluralrules.h>
#include <unicode/unum.h>
#include <unicode/ustring.h>
#include <unicode/uchar.h>
#include <string.h>

void *pb_plural_open(const char *locale) {
    UErrorCode status = U_ZERO_ERROR;
    UPluralRules *rules = uplrules_open(locale, &status);
    if (U_FAILURE(status)) return NULL;
    return rules;
}

int32_t pb_plural_select(void *rules, double n, char *buf, int32_t capacity) {
    UChar keyword[32];
    UErrorCode status = U_ZERO_ERROR;
    int32_t length = uplrules_select((const UPluralRules *)rules, n, keyword, 32, &status);
    if (U_FAILURE(status) || length >= capacity) return -1;
    u_UCharsToChars(keyword, buf, length);
    buf[length] = 0;
    return length;
}

int32_t pb_plural_keywords(void *rules, char *buf, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    UEnumeration *keywords = uplrules_getKeywords((const UPluralRules *)rules, &status);
    if (U_FAILURE(status)) return -1;
    int32_t used = 0;
    int32_t length = 0;
    const char *word;
    while ((word = uenum_next(keywords, &length, &status)) != NULL && U_SUCCESS(status)) {
        if (used + length + 2 > capacity) { uenum_close(keywords); return -1; }
        if (used > 0) buf[used++] = ' ';
        memcpy(buf + used, word, (size_t)length);
        used += length;
    }
    uenum_close(keywords);
    buf[used] = 0;
    return U_SUCCESS(status) ? used : -1;
}

void pb_plural_close(void *rules) {
    if (rules) uplrules_close((UPluralRules *)rules);
}

void *pb_number_open(const char *locale) {
    UErrorCode status = U_ZERO_ERROR;
    UNumberFormat *fmt = unum_open(UNUM_DECIMAL, NULL, 0, locale, NULL, &status);
    if (U_FAILURE(status)) return NULL;
    return fmt;
}

int32_t pb_number_format(void *formatter, double n, char *buf, int32_t capacity) {
    UChar text[128];
    UErrorCode status = U_ZERO_ERROR;
    int32_t length = unum_formatDouble((const UNumberFormat *)formatter, n, text, 128, NULL, &status);
    if (U_FAILURE(status) || length >= 128) return -1;
    int32_t written = 0;
    u_strToUTF8(buf, capacity, &written, text, length, &status);
    if (U_FAILURE(status) || written >= capacity) return -1;
    buf[written] = 0;
    return written;
}

void pb_number_close(void *formatter) {
    if (formatter) unum_close((UNumberFormat *)formatter);
}

int32_t pb_codepoint_width(uint32_t codepoint) {
    UChar32 c = (UChar32)codepoint;
    int8_t category = u_charType(c);
    if (category == U_NON_SPACING_MARK || category == U_ENCLOSING_MARK || category == U_FORMAT_CHAR) return 0;
    if (u_hasBinaryProperty(c, UCHAR_VARIATION_SELECTOR)) return 0;
    if (u_hasBinaryProperty(c, UCHAR_EMOJI_PRESENTATION)) return 2;
    int32_t eaw = u_getIntPropertyValue(c, UCHAR_EAST_ASIAN_WIDTH);
    if (eaw == U_EA_WIDE || eaw == U_EA_FULLWIDTH) return 2;
    return 1;
}
