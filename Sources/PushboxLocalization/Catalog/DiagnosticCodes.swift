import PushboxJSON

/// The codes of the localizer, the format engine, the rule expander and the localization linter.
extension Diagnostic.Code {
    /// A strings file that cannot be read: the whole file is ignored on a device.
    public static let brokenFile = Self(rawValue: "broken-file")
    /// A key given twice (in a strings file, or in a payload's JSON).
    public static let duplicateKey = Self(rawValue: "duplicate-key")
    /// A device language that is no language code, or that no localization of the app matches.
    public static let unknownLanguage = Self(rawValue: "unknown-language")
    /// A key missing in a localization: the device shows the key itself.
    public static let missingKey = Self(rawValue: "missing-key")
    /// Half a UTF-16 surrogate pair in a strings file, shown as U+FFFD (lint).
    public static let unpairedSurrogate = Self(rawValue: "unpaired-surrogate")
    /// A strings file entry of the wrong type, ignored (lint).
    public static let ignoredEntry = Self(rawValue: "ignored-entry")
    /// A string catalog newer than pushbox knows, read as the newest it knows (lint).
    public static let newerCatalogVersion = Self(rawValue: "newer-catalog-version")
    /// A control character XML forbids in a `.stringsdict` or XML `.strings` (lint).
    public static let controlCharacter = Self(rawValue: "control-character")
    /// Text after an XML plist's top-level element, ignored by CoreFoundation (lint).
    public static let contentAfterPlist = Self(rawValue: "content-after-plist")
    /// An XML declaration not at the start of the file (lint).
    public static let misplacedXMLDeclaration = Self(rawValue: "misplaced-xml-declaration")
    /// An XML comment holding `--` (lint).
    public static let commentDoubleHyphen = Self(rawValue: "comment-double-hyphen")
    /// A `<key>` as a dictionary's value, read as a string (lint).
    public static let keyAsValue = Self(rawValue: "key-as-value")
    /// Bytes that are not UTF-8 outside the strings of an XML plist (lint).
    public static let invalidUTF8OutsideStrings = Self(rawValue: "invalid-utf8-outside-strings")
    /// A UTF-16/UTF-32 file with a partial unit at its end, ignored (lint).
    public static let trailingBytes = Self(rawValue: "trailing-bytes")
    /// UTF-16 without a byte-order mark, read as CoreFoundation reads it (lint).
    public static let utf16WithoutBOM = Self(rawValue: "utf16-without-bom")
    /// A `.strings` file CoreFoundation stops reading before its end (lint).
    public static let restOfFileIgnored = Self(rawValue: "rest-of-file-ignored")
    /// A 0xA9 byte that is not UTF-8, read as U+FFFD (lint).
    public static let strayA9Byte = Self(rawValue: "stray-a9-byte")
    /// A catalog entry marked `new` or `needs_review`.
    public static let translationState = Self(rawValue: "translation-state")
    /// A catalog entry with no translation: the source language's value is used.
    public static let untranslated = Self(rawValue: "untranslated")
    /// An unfinished catalog unit (lint).
    public static let unfinished = Self(rawValue: "unfinished")
    /// A plural category the language needs and the rule lacks (lint).
    public static let missingPluralCategory = Self(rawValue: "missing-plural-category")
    /// A translation's argument count differs from the development language's (lint).
    public static let specifierCount = Self(rawValue: "specifier-count")
    /// A translation's argument type differs from the development language's (lint).
    public static let specifierType = Self(rawValue: "specifier-type")

    // The format engine (FormatRenderer) and the rule expander (RuleExpander).

    /// Positional (`%1$@`) and sequential (`%@`) specifiers mixed: undefined on a device.
    public static let mixedSpecifiers = Self(rawValue: "mixed-specifiers")
    /// A positional format that skips an argument: undefined on a device.
    public static let skippedArgument = Self(rawValue: "skipped-argument")
    /// `%` followed by something that is not a specifier.
    public static let invalidSpecifier = Self(rawValue: "invalid-specifier")
    /// `%n`, which writes to memory on a device.
    public static let writesMemory = Self(rawValue: "writes-memory")
    /// `% @`: a space flag on `%@`.
    public static let spaceFlag = Self(rawValue: "space-flag")
    /// A `%n$` position outside 1…127.
    public static let argumentIndexOutOfRange = Self(rawValue: "argument-index-out-of-range")
    /// A specifier for an argument that was not given.
    public static let missingArgument = Self(rawValue: "missing-argument")
    /// `%s`/`%S` given a string object.
    public static let cStringSpecifier = Self(rawValue: "c-string-specifier")
    /// `%c`/`%C` given a string.
    public static let characterSpecifier = Self(rawValue: "character-specifier")
    /// `%p` given a string.
    public static let pointerSpecifier = Self(rawValue: "pointer-specifier")
    /// A number specifier given text that is not a number.
    public static let notANumber = Self(rawValue: "not-a-number")
    /// An integer specifier given a decimal number.
    public static let decimalForInteger = Self(rawValue: "decimal-for-integer")
    /// Rule variables nested more than 8 deep.
    public static let ruleTooDeep = Self(rawValue: "rule-too-deep")
    /// `%#@name@` naming no variable of the entry.
    public static let ruleUnknownVariable = Self(rawValue: "rule-unknown-variable")
    /// A rule variable without the variant needed and without `other`.
    public static let ruleMissingVariant = Self(rawValue: "rule-missing-variant")
    /// A rule variable whose variant was not there: `other` is used.
    public static let ruleVariantFallback = Self(rawValue: "rule-variant-fallback")
}
