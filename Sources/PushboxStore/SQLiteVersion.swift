import CSQLite

/// The SQLite library the inbox is stored with.
public enum SQLiteVersion {
    /// `SQLite 3.40.1`.
    public static var description: String { "SQLite " + String(cString: sqlite3_libversion()) }
}
