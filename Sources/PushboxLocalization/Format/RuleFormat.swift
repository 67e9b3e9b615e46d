import Foundation
import PushboxJSON

/// A `.stringsdict` entry (or an `.xcstrings` plural/substitution): a format whose `%#@name@`
/// references choose among variants by a number.
public struct RuleFormat: Sendable, Equatable {
    /// `NSStringLocalizedFormatKey`: the format with `%#@variable@` references.
    public var format: String
    /// The `%#@name@` variables' rules, by name.
    public var variables: [String: RuleVariable]

    /// A rule format from its key format and variables.
    public init(format: String, variables: [String: RuleVariable]) {
        self.format = format
        self.variables = variables
    }
}

/// One variable of a rule format.
public struct RuleVariable: Sendable, Equatable {
    /// What chooses a variable's form: a plural category or the display width.
    public enum Kind: String, Sendable {
        /// `NSStringPluralRuleType`: CLDR categories.
        case plural = "NSStringPluralRuleType"
        /// `NSStringVariableWidthRuleType`: numeric width keys.
        case variableWidth = "NSStringVariableWidthRuleType"
    }

    /// Plural or device rule.
    public var kind: Kind
    /// `NSStringFormatValueTypeKey` (`d`, `ld`, `@`…), without the `%`.
    public var valueType: String
    /// Category (`one`, `few`, …) or width (`20`, `40`) → variant text.
    public var forms: [String: String]
    /// The 1-based argument the variable reads, when the file says so (`.xcstrings` `argNum`);
    /// otherwise the reference's position in the format decides.
    public var argNum: Int?
    /// When set, each variant is a whole format with its own arguments (a catalog's plural
    /// variation of a whole string) instead of text about the variable's one argument.
    public var variantsAreFormats = false

    /// A variable from its kind, value type and forms.
    public init(kind: Kind, valueType: String, forms: [String: String], argNum: Int? = nil, variantsAreFormats: Bool = false) {
        self.kind = kind
        self.valueType = valueType
        self.forms = forms
        self.argNum = argNum
        self.variantsAreFormats = variantsAreFormats
    }
}

/// Expands a rule format into a plain format for given arguments, choosing each variable's
/// variant: plural categories from ICU (`zero` used for 0 when present, as devices appear to
/// do — unconfirmed), widths by the terminal's width (exact, else the next smaller, else the
/// smallest). Specifiers inside a variant are bound to the variable's argument.
public struct RuleExpander: Sendable {
    /// The language's plural rules (ICU).
    public var plural: PluralRules
    /// The width a variable-width rule is chosen for (the terminal's columns).
    public var displayWidth: Int
    /// The file the rule comes from, named in warnings.
    public var source: String?

    /// An expander with a language's plural rules and the screen's width.
    public init(plural: PluralRules, displayWidth: Int = 80, source: String? = nil) {
        self.plural = plural
        self.displayWidth = displayWidth
        self.source = source
    }

    /// The format the rule gives for `args`, each variable replaced by its chosen form.
    public func expand(_ rule: RuleFormat, args: [String], warnings: inout [Diagnostic]) -> String {
        expand(rule.format, rule: rule, args: args, depth: 0, boundTo: nil, warnings: &warnings)
    }

    /// Rewrites one format: each variable reference becomes its chosen variant, and every
    /// sequential specifier becomes positional (`%d` → `%2$d`) so that the expanded text keeps
    /// the argument each specifier had in the original.
    private func expand(_ format: String, rule: RuleFormat, args: [String], depth: Int, boundTo: Int?, warnings: inout [Diagnostic]) -> String {
        guard depth < 8 else {
            warnings.append(Diagnostic(.ruleTooDeep, "rule variables nest more than 8 deep; the rest is shown as written"))
            return format
        }
        var out = ""
        var sequential = 0
        for segment in ParsedFormat(format).segments {
            switch segment {
            case .literal(let text):
                out += text
            case .invalid(let text):
                out += text
            case .specifier(let spec):
                if spec.conversion == "%" {
                    out += "%%"
                    continue
                }
                let index: Int
                if let bound = boundTo {
                    index = spec.position ?? bound
                } else if let p = spec.position {
                    index = p
                } else {
                    sequential += 1
                    index = sequential
                }
                guard let name = spec.variable else {
                    out += positional(spec, index)
                    continue
                }
                guard let variable = rule.variables[name] else {
                    warnings.append(Diagnostic(.ruleUnknownVariable, "\(spec.text) names no variable in this entry; shown as written"))
                    out += spec.text
                    continue
                }
                let argIndex = variable.argNum ?? index
                let chosen = choose(variable, name: name, argIndex: argIndex, args: args, warnings: &warnings)
                out += expand(
                    chosen, rule: rule, args: args, depth: depth + 1,
                    boundTo: variable.variantsAreFormats ? nil : argIndex, warnings: &warnings)
            }
        }
        return out
    }

    /// The specifier rewritten with an explicit position.
    private func positional(_ spec: FormatSpecifier, _ index: Int) -> String {
        guard spec.position == nil else { return spec.text }
        var text = spec.text
        text.insert(contentsOf: "\(index)$", at: text.index(after: text.startIndex))
        return text
    }

    /// A rule without the needed form and without `other`: never nothing where the file has
    /// text — the first form it does have, in CLDR's order, with an error-level warning.
    private func fallback(_ variable: RuleVariable, name: String, missing: String, warnings: inout [Diagnostic]) -> String {
        let present = variable.forms.keys.sorted { (PluralCategory(rawValue: $0) ?? .other) < (PluralCategory(rawValue: $1) ?? .other) }
        guard let chosen = present.first else { return "" }
        warnings.append(
            Diagnostic(
                .ruleMissingVariant,
                "%#@\(name)@\(source.map { " in \($0)" } ?? "") has no \"\(missing)\" variant (needed in \(plural.locale)) and no \"other\"; showing its \"\(chosen)\" variant",
                severity: .error))
        return variable.forms[chosen] ?? ""
    }

    func choose(_ variable: RuleVariable, name: String, argIndex: Int, args: [String], warnings: inout [Diagnostic]) -> String {
        guard argIndex >= 1, argIndex <= args.count else {
            warnings.append(
                Diagnostic(.missingArgument, "%#@\(name)@ needs argument \(argIndex) but only \(args.count) given; using the \"other\" variant"))
            return variable.forms["other"] ?? variable.forms.values.sorted().first ?? ""
        }
        let arg = args[argIndex - 1].trimmingCharacters(in: .whitespaces)
        switch variable.kind {
        case .plural:
            guard let n = Double(arg) else {
                warnings.append(
                    Diagnostic(.notANumber, "%#@\(name)@ chooses by a number but argument \(argIndex) is \"\(arg)\"; using the \"other\" variant"))
                return variable.forms["other"] ?? fallback(variable, name: name, missing: "other", warnings: &warnings)
            }
            if n == 0, let zero = variable.forms["zero"] { return zero }
            // CLDR's operands for the number as written: "1.5" and "1.0" have visible fraction digits.
            let category = plural.category(forArgument: arg).rawValue
            if let form = variable.forms[category] { return form }
            if let other = variable.forms["other"] {
                warnings.append(
                    Diagnostic(.ruleVariantFallback, "%#@\(name)@ has no \"\(category)\" variant for \(arg) in \(plural.locale); using \"other\""))
                return other
            }
            return fallback(variable, name: name, missing: category, warnings: &warnings)
        case .variableWidth:
            let widths = variable.forms.keys.compactMap { Int($0) }.sorted()
            guard let smallest = widths.first else { return variable.forms["other"] ?? "" }
            let pick = widths.last { $0 <= displayWidth } ?? smallest
            return variable.forms[String(pick)] ?? ""
        }
    }
}
