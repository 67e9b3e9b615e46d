import Foundation

/// The XDG base directories pushbox keeps its files under, each overridable by its variable.
public enum XDG {
    /// `$XDG_CONFIG_HOME`, else `~/.config`.
    public static func configHome(_ environment: [String: String]) -> String {
        directory(environment, "XDG_CONFIG_HOME", default: ".config")
    }

    /// `$XDG_DATA_HOME`, else `~/.local/share`.
    public static func dataHome(_ environment: [String: String]) -> String {
        directory(environment, "XDG_DATA_HOME", default: ".local/share")
    }

    /// `$XDG_CACHE_HOME`, else `~/.cache`.
    public static func cacheHome(_ environment: [String: String]) -> String {
        directory(environment, "XDG_CACHE_HOME", default: ".cache")
    }

    private static func directory(_ environment: [String: String], _ variable: String, default relative: String) -> String {
        if let value = environment[variable], !value.isEmpty { return value }
        return (NSHomeDirectory() as NSString).appendingPathComponent(relative)
    }
}
