// The few ICU C functions pushbox calls, declared by hand with plain C types, as the Swift
// toolchain's lib_FoundationICU exports them (ICU 76, CLDR 46, every symbol prefixed swift_).
// That ICU is the one Foundation's NumberFormatter and String(format:locale:) use; its headers
// are not on a C target's include path, and ICU's C API and enum values are stable, so these
// declarations are all that is needed. Values from ICU's unum.h, uchar.h and utypes.h.
#ifndef PB_ICU_DECLS_H
#define PB_ICU_DECLS_H

#include <stdint.h>

typedef uint16_t pb_UChar;
typedef int pb_UErrorCode;  // U_ZERO_ERROR is 0; failures are > 0, warnings < 0
#define PB_U_FAILURE(x) ((x) > 0)

enum { PB_UNUM_DECIMAL = 1, PB_UNUM_MINIMUM_GROUPING_DIGITS = 22, PB_UNUM_MINIMUM_GROUPING_DIGITS_AUTO = -2 };
enum { PB_U_NON_SPACING_MARK = 6, PB_U_ENCLOSING_MARK = 7, PB_U_CONTROL_CHAR = 15, PB_U_FORMAT_CHAR = 16 };
enum { PB_UCHAR_VARIATION_SELECTOR = 36, PB_UCHAR_EMOJI_PRESENTATION = 58, PB_UCHAR_EAST_ASIAN_WIDTH = 0x1004 };
enum { PB_U_EA_FULLWIDTH = 3, PB_U_EA_WIDE = 5 };
enum { PB_UCHAR_HANGUL_SYLLABLE_TYPE = 0x100B, PB_U_HST_VOWEL_JAMO = 2, PB_U_HST_TRAILING_JAMO = 3 };

typedef uint8_t pb_UVersionInfo[4];
void swift_u_getVersion(pb_UVersionInfo versionArray);
void swift_u_versionToString(const pb_UVersionInfo versionArray, char *versionString);
void swift_ulocdata_getCLDRVersion(pb_UVersionInfo versionArray, pb_UErrorCode *status);

void *swift_uplrules_open(const char *locale, pb_UErrorCode *status);
int32_t swift_uplrules_select(const void *rules, double number, pb_UChar *keyword, int32_t capacity, pb_UErrorCode *status);
int32_t swift_uplrules_selectFormatted(const void *rules, const void *number, pb_UChar *keyword, int32_t capacity, pb_UErrorCode *status);
void *swift_uplrules_getKeywords(const void *rules, pb_UErrorCode *status);
void swift_uplrules_close(void *rules);
const char *swift_uenum_next(void *enumeration, int32_t *length, pb_UErrorCode *status);
void swift_uenum_close(void *enumeration);

void *swift_unum_open(int style, const pb_UChar *pattern, int32_t patternLength, const char *locale, void *parseError, pb_UErrorCode *status);
void swift_unum_setAttribute(void *format, int attribute, int32_t value);
int32_t swift_unum_formatDouble(const void *format, double number, pb_UChar *result, int32_t capacity, void *position, pb_UErrorCode *status);
void swift_unum_close(void *format);

void *swift_unumf_openForSkeletonAndLocale(const pb_UChar *skeleton, int32_t skeletonLength, const char *locale, pb_UErrorCode *status);
void *swift_unumf_openResult(pb_UErrorCode *status);
void swift_unumf_formatDecimal(const void *formatter, const char *value, int32_t valueLength, void *result, pb_UErrorCode *status);
int32_t swift_unumf_resultToString(const void *result, pb_UChar *buffer, int32_t capacity, pb_UErrorCode *status);
void swift_unumf_close(void *formatter);
void swift_unumf_closeResult(void *result);

int8_t swift_u_charType(int32_t c);

// Scripts (uscript.h) and likely subtags (uloc.h).
enum { PB_USCRIPT_COMMON = 0, PB_USCRIPT_INHERITED = 1 };
int swift_uscript_getScript(int32_t codepoint, pb_UErrorCode *status);
const char *swift_uscript_getShortName(int script);
int32_t swift_uloc_addLikelySubtags(const char *localeID, char *maximizedLocaleID, int32_t capacity, pb_UErrorCode *status);
int32_t swift_uloc_getScript(const char *localeID, char *script, int32_t capacity, pb_UErrorCode *status);

// Apple's own localization choice (Apple's ICU, ualoc.h; exported unprefixed): CFBundle picks an
// app's localization with it on Apple's systems.
int32_t ualoc_localizationsToUse(const char *const *preferredLanguages, int32_t preferredLanguagesCount,
                                 const char *const *availableLocalizations, int32_t availableLocalizationsCount,
                                 const char **localizationsToUse, int32_t localizationsToUseCapacity, pb_UErrorCode *status);
int8_t swift_u_hasBinaryProperty(int32_t c, int which);
int32_t swift_u_getIntPropertyValue(int32_t c, int which);
pb_UChar *swift_u_strToUTF8(char *dest, int32_t capacity, int32_t *length, const pb_UChar *src, int32_t srcLength, pb_UErrorCode *status);
void swift_u_UCharsToChars(const pb_UChar *us, char *cs, int32_t length);

// Break iterators (ubrk.h) and the bidirectional algorithm (ubidi.h).
enum { PB_UBRK_LINE = 2, PB_UBRK_DONE = -1 };
void *swift_ubrk_open(int type, const char *locale, const pb_UChar *text, int32_t textLength, pb_UErrorCode *status);
int32_t swift_ubrk_first(void *bi);
int32_t swift_ubrk_next(void *bi);
void swift_ubrk_close(void *bi);
void *swift_ubidi_open(void);
void swift_ubidi_setPara(void *bidi, const pb_UChar *text, int32_t length, uint8_t paraLevel, uint8_t *embeddingLevels, pb_UErrorCode *status);
int32_t swift_ubidi_writeReordered(void *bidi, pb_UChar *dest, int32_t destSize, uint16_t options, pb_UErrorCode *status);
int swift_ubidi_getBaseDirection(const pb_UChar *text, int32_t length);
void swift_ubidi_close(void *bidi);
enum { PB_UBIDI_DEFAULT_LTR = 0xFE, PB_UBIDI_KEEP_BASE_COMBINING = 1, PB_UBIDI_DO_MIRRORING = 2, PB_UBIDI_LTR = 0, PB_UBIDI_RTL = 1, PB_UBIDI_NEUTRAL = 3 };

#endif
