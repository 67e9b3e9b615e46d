/// pushbox's version: what `--version` prints and the API's OpenAPI document says.
public enum PushboxVersion {
    /// The version, `major.minor.patch`.
    public static let current = "0.1.0"
}
