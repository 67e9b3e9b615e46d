// ICU's C API as Debian ships it (libicu-dev). Only CICUWrap's .c file includes this;
// no Swift module imports it, because Foundation carries its own ICU headers and the two
// clash ("'UErrorCode' has different definitions in different modules").
#include <unicode/upluralrules.h>
#include <unicode/unum.h>
#include <unicode/ustring.h>
#include <unicode/uloc.h>
