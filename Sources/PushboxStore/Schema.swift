import PushboxDevice

/// The inbox's versioned schema. `PRAGMA user_version` holds the version; each migration runs
/// once, in a transaction, in order. Never edit a shipped migration: add the next one.
enum Schema {
    static let migrations: [String] = [
        // 1: notifications as received (raw bytes kept untouched) plus APNs' verdict, and renders per language.
        """
        CREATE TABLE notifications (
            id INTEGER PRIMARY KEY,
            apns_id TEXT NOT NULL,
            received_at REAL NOT NULL,
            source TEXT NOT NULL,
            file TEXT,
            content_hash TEXT NOT NULL,
            device_token TEXT,
            headers TEXT NOT NULL,
            raw BLOB NOT NULL,
            status INTEGER,
            reason TEXT,
            detail TEXT,
            collapse_id TEXT,
            topic TEXT,
            deleted INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX notifications_received ON notifications(received_at);
        CREATE INDEX notifications_file ON notifications(file, content_hash);
        CREATE INDEX notifications_apns_id ON notifications(apns_id);
        CREATE TABLE renders (
            notification_id INTEGER NOT NULL REFERENCES notifications(id) ON DELETE CASCADE,
            language TEXT NOT NULL,
            json TEXT NOT NULL,
            PRIMARY KEY (notification_id, language)
        );
        """,
        // 2: the inbox view looks up the latest notification per collapse id and topic.
        """
        CREATE INDEX notifications_collapse ON notifications(collapse_id, topic);
        """,
        // 3: how a push reached the HTTP API (listener, protocol, user-agent, authentication), as JSON.
        """
        ALTER TABLE notifications ADD COLUMN arrival TEXT;
        """,
        // 4: indexes cost a page write per insert; keep only what a query uses. No query looks
        // a notification up by apns-id; files and collapse ids are looked up only when present,
        // so pushes from the socket (no file) and without a collapse id touch neither index.
        """
        DROP INDEX notifications_apns_id;
        DROP INDEX notifications_file;
        CREATE INDEX notifications_file ON notifications(file, content_hash) WHERE file IS NOT NULL;
        DROP INDEX notifications_collapse;
        CREATE INDEX notifications_collapse ON notifications(collapse_id, topic) WHERE collapse_id IS NOT NULL;
        """,
        // 5: the inbox and history are in the order notifications arrived (the row id), not by
        // their wall-clock time, which a clock step or two concurrent pushes can invert: the time
        // index cost every push a page of the log and served nothing the row id does not.
        """
        DROP INDEX notifications_received;
        """,
        // 6: where a notification stands in delivery while the device was offline (NULL:
        // delivered when it arrived, or refused): stored (until expires_at, replaced by a newer
        // one under the same hold_key), delivered-from-storage or discarded-*, since delivery_at.
        // Only stored rows are looked up, by their key or all at once when the device is back.
        // targeting: an FCM message's targeting as judged when it arrived (TargetingRecord JSON).
        """
        ALTER TABLE notifications ADD COLUMN delivery TEXT;
        ALTER TABLE notifications ADD COLUMN delivery_at REAL;
        ALTER TABLE notifications ADD COLUMN expires_at REAL;
        ALTER TABLE notifications ADD COLUMN hold_key TEXT;
        CREATE INDEX notifications_stored ON notifications(hold_key) WHERE delivery = 'stored';
        ALTER TABLE notifications ADD COLUMN targeting TEXT;
        """,
        // 7: what the device did with a Live Activity push when it arrived (LiveActivityOutcome
        // JSON): the activities change since, and a rendering made later must say what happened then.
        """
        ALTER TABLE notifications ADD COLUMN live_activity TEXT;
        """,
        // 8: what the inbox lists of the payload (PayloadListing), read when it was validated, so
        // opening the inbox neither parses nor validates a stored payload again: the alert as sent,
        // its thread, when a local one fired, and listed_flags (NULL: nothing listed; 1 listed,
        // | 2 background, | 4 encrypted). Columns, not JSON: nothing to write or parse per row.
        """
        ALTER TABLE notifications ADD COLUMN listed_title TEXT;
        ALTER TABLE notifications ADD COLUMN listed_body TEXT;
        ALTER TABLE notifications ADD COLUMN listed_thread TEXT;
        ALTER TABLE notifications ADD COLUMN listed_fired_at TEXT;
        ALTER TABLE notifications ADD COLUMN listed_flags INTEGER;
        """,
        // 9: the device clock when it arrived: its time when not the wall clock (NULL: received_at),
        // and its zone (NULL: not known), so every list shows the time the phone showed.
        """
        ALTER TABLE notifications ADD COLUMN device_at REAL;
        ALTER TABLE notifications ADD COLUMN device_zone TEXT;
        """,
        // 10: the device of the fleet a notification was delivered to (NULL: the inbox's default
        // device, `phone`): a push that reaches three devices is three rows with one apns-id.
        """
        ALTER TABLE notifications ADD COLUMN device TEXT;
        """,
        // 11: how the device presented it when it arrived (Presentation JSON: shown, quietly,
        // held for the scheduled summary, silenced by Focus; NULL: it showed nothing then).
        """
        ALTER TABLE notifications ADD COLUMN presentation TEXT;
        """,
    ]

    static var version: Int { migrations.count }
}
