import Foundation
import LockstepFoundation
import LockstepSQLite
import SwiftUI
import Synchronization
import WidgetKit

// A widget extension in the shape of home-assistant/iOS PR #4998, written as a team's widget is, for LaunchKit's
// suspension tests (rule `lock.dead10cc`; built, not installed). Its timeline shows how many entities the database the
// app shares holds (`shared.sqlite` in the App Group container, which the probe app's `setup-db` creates at schema 1)
// and how many timelines it has served, now and again two seconds later.
//
// The bug's shape: finding the database at schema 1, the provider starts migrating it to schema 2 on a background
// thread and returns its timeline while the migration — seconds of it — holds SQLite's write lock. iOS suspends a
// widget extension once its timeline has returned and kills it with 0xdead10cc for the lock it still holds. Without
// the database it is a well-behaved widget.

struct EntitiesEntry: TimelineEntry {
    let date: Date
    let text: String
}

struct DatabaseError: Error, CustomStringConvertible {
    let description: String
}

/// The shared database, if the app has created it.
func sharedDatabase() -> SQLiteConnection<DatabaseError>? {
    guard let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.com.example.probe") else { return nil }
    let path = container.appendingPathComponent("shared.sqlite").path
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    return try? SQLiteConnection(path: path, busyTimeout: 5) { DatabaseError(description: "\(path): \($1)") }
}

struct EntitiesProvider: TimelineProvider {
    /// Timelines served by this process.
    static let served = Mutex(0)

    func placeholder(in context: Context) -> EntitiesEntry {
        EntitiesEntry(date: Date(), text: "Entities")
    }

    func getSnapshot(in context: Context, completion: @escaping (EntitiesEntry) -> Void) {
        completion(placeholder(in: context))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<EntitiesEntry>) -> Void) {
        let number = Self.served.withLock { served in
            served += 1
            return served
        }
        var text = "timeline \(number): no database"
        if let database = sharedDatabase(),
           let count = try? database.query("SELECT count(*) FROM entities").first?.first?.string,
           let version = try? database.query("PRAGMA user_version").first?.first?.string {
            text = "timeline \(number): \(count) entities"
            if version == "1" { Self.migrateInTheBackground() }
        }
        let now = Date()
        completion(Timeline(entries: [EntitiesEntry(date: now, text: text), EntitiesEntry(date: now.addingTimeInterval(2), text: text + ", later")],
                            policy: .never))
    }

    /// The bug: the migration goes on after the timeline has returned, holding the write lock for seconds. Returns once
    /// the migration holds the lock.
    static func migrateInTheBackground() {
        let locked = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            guard let database = sharedDatabase() else { locked.signal(); return }
            do {
                do {
                    try database.execute("BEGIN IMMEDIATE; ALTER TABLE entities ADD COLUMN icon TEXT;")
                    locked.signal()
                } catch {
                    locked.signal()
                    throw error
                }
                for part in 0..<60 {
                    try database.execute("UPDATE entities SET icon = 'mdi:\(part)' WHERE id % 60 = \(part);")
                    Thread.sleep(forTimeInterval: 0.05)  // the migration's own pace: a long one, as a real one is
                }
                try database.execute("PRAGMA user_version = 2; COMMIT;")
                print("migrated to schema 2")
            } catch {
                FileHandle.standardError.write(Data("the migration failed: \(error)\n".utf8))
            }
        }
        locked.wait()
    }
}

@main
struct EntitiesWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "Entities", provider: EntitiesProvider()) { entry in
            Text(entry.text)
                .containerBackground(.background, for: .widget)
        }
        .configurationDisplayName("Entities")
        .description("How many entities the shared database holds.")
        .supportedFamilies([.systemSmall])
    }
}
