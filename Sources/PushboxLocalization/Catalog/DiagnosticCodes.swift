import PushboxJSON

/// The codes of the localizer, the format engine, the rule expander and the localization linter.
extension Diagnostic.Code {
    public static let brokenFile = Self("broken-file", .error, "A strings file that cannot be read: the whole file is ignored on a device.")
    public static let duplicateKey = Self("duplicate-key", .warning, "A key given twice (in a strings file, or in a payload's JSON).")
    public static let unknownLanguage = Self(
        "unknown-language", .warning,
        "A device language that is no language code, or that no localization of the app matches.")
    public static let missingKey = Self("missing-key", .warning, "A key missing in a localization: the device shows the key itself.")
    public static let unpairedSurrogate = Self(
        "unpaired-surrogate", .warning,
        "Half a UTF-16 surrogate pair in a strings file, shown as U+FFFD (lint).")
    public static let ignoredEntry = Self("ignored-entry", .warning, "A strings file entry of the wrong type, ignored (lint).")
    public static let newerCatalogVersion = Self(
        "newer-catalog-version", .warning,
        "A string catalog newer than pushbox knows, read as the newest it knows (lint).")
    public static let controlCharacter = Self(
        "control-character", .warning,
        "A control character XML forbids in a `.stringsdict` or XML `.strings` (lint).")
    public static let contentAfterPlist = Self(
        "content-after-plist", .warning,
        "Text after an XML plist's top-level element, ignored by CoreFoundation (lint).")
    public static let misplacedXMLDeclaration = Self("misplaced-xml-declaration", .warning, "An XML declaration not at the start of the file (lint).")
    public static let commentDoubleHyphen = Self("comment-double-hyphen", .warning, "An XML comment holding `--` (lint).")
    public static let keyAsValue = Self("key-as-value", .warning, "A `<key>` as a dictionary's value, read as a string (lint).")
    public static let invalidUTF8OutsideStrings = Self(
        "invalid-utf8-outside-strings", .warning,
        "Bytes that are not UTF-8 outside the strings of an XML plist (lint).")
    public static let trailingBytes = Self("trailing-bytes", .warning, "A UTF-16/UTF-32 file with a partial unit at its end, ignored (lint).")
    public static let utf16WithoutBOM = Self(
        "utf16-without-bom", .warning,
        "UTF-16 without a byte-order mark, read as CoreFoundation reads it (lint).")
    public static let restOfFileIgnored = Self(
        "rest-of-file-ignored", .warning,
        "A `.strings` file CoreFoundation stops reading before its end (lint).")
    public static let strayA9Byte = Self("stray-a9-byte", .warning, "A 0xA9 byte that is not UTF-8, read as U+FFFD (lint).")
    public static let translationState = Self("translation-state", .warning, "A catalog entry marked `new` or `needs_review`.")
    public static let untranslated = Self("untranslated", .warning, "A catalog entry with no translation: the source language's value is used.")
    public static let unfinished = Self("unfinished", .warning, "An unfinished catalog unit (lint).")
    public static let missingPluralCategory = Self(
        "missing-plural-category", .error,
        "A plural category the language needs and the rule lacks (lint).")
    public static let specifierCount = Self(
        "specifier-count", .warning,
        "A translation's argument count differs from the development language's (lint).")
    public static let specifierType = Self("specifier-type", .error, "A translation's argument type differs from the development language's (lint).")

    // The format engine (FormatRenderer) and the rule expander (RuleExpander).

    public static let mixedSpecifiers = Self(
        "mixed-specifiers", .warning,
        "Positional (`%1$@`) and sequential (`%@`) specifiers mixed: undefined on a device.")
    public static let skippedArgument = Self("skipped-argument", .warning, "A positional format that skips an argument: undefined on a device.")
    public static let invalidSpecifier = Self("invalid-specifier", .warning, "`%` followed by something that is not a specifier.")
    public static let writesMemory = Self("writes-memory", .warning, "`%n`, which writes to memory on a device.")
    public static let spaceFlag = Self("space-flag", .warning, "`% @`: a space flag on `%@`.")
    public static let argumentIndexOutOfRange = Self("argument-index-out-of-range", .warning, "A `%n$` position outside 1…127.")
    public static let missingArgument = Self("missing-argument", .warning, "A specifier for an argument that was not given.")
    public static let cStringSpecifier = Self("c-string-specifier", .warning, "`%s`/`%S` given a string object.")
    public static let characterSpecifier = Self("character-specifier", .warning, "`%c`/`%C` given a string.")
    public static let pointerSpecifier = Self("pointer-specifier", .warning, "`%p` given a string.")
    public static let notANumber = Self("not-a-number", .warning, "A number specifier given text that is not a number.")
    public static let decimalForInteger = Self("decimal-for-integer", .warning, "An integer specifier given a decimal number.")
    public static let ruleTooDeep = Self("rule-too-deep", .warning, "Rule variables nested more than 8 deep.")
    public static let ruleUnknownVariable = Self("rule-unknown-variable", .warning, "`%#@name@` naming no variable of the entry.")
    public static let ruleMissingVariant = Self("rule-missing-variant", .warning, "A rule variable without the variant needed and without `other`.")
    public static let ruleVariantFallback = Self("rule-variant-fallback", .warning, "A rule variable whose variant was not there: `other` is used.")
}

/// The localizer's, the format engine's, the rule expander's and the localization linter's codes, for the reference page (a test checks it holds every code declared in the module).
extension Diagnostic.Code {
    public static let localizationCatalog: [Self] = [
        .brokenFile,
        .duplicateKey,
        .unknownLanguage,
        .missingKey,
        .unpairedSurrogate,
        .ignoredEntry,
        .newerCatalogVersion,
        .controlCharacter,
        .contentAfterPlist,
        .misplacedXMLDeclaration,
        .commentDoubleHyphen,
        .keyAsValue,
        .invalidUTF8OutsideStrings,
        .trailingBytes,
        .utf16WithoutBOM,
        .restOfFileIgnored,
        .strayA9Byte,
        .translationState,
        .untranslated,
        .unfinished,
        .missingPluralCategory,
        .specifierCount,
        .specifierType,
        .mixedSpecifiers,
        .skippedArgument,
        .invalidSpecifier,
        .writesMemory,
        .spaceFlag,
        .argumentIndexOutOfRange,
        .missingArgument,
        .cStringSpecifier,
        .characterSpecifier,
        .pointerSpecifier,
        .notANumber,
        .decimalForInteger,
        .ruleTooDeep,
        .ruleUnknownVariable,
        .ruleMissingVariant,
        .ruleVariantFallback,
    ]
}
