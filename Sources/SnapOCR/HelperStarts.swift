import Synchronization

/// How many helper processes (`__reader`, `__spelling`) this process has started, by their
/// first argument and executable path. Tests tell a reading made apart from one made here by it;
/// each such test starts its helpers through an executable path of its own (a link to the
/// executable), so that suites running at once do not count each other's.
enum HelperStarts {
    private static let counts = Mutex<[String: Int]>([:])

    /// Counts one start of `helper` (`__reader`, `__spelling`) from `executable`.
    static func record(_ helper: String, executable: String) {
        counts.withLock { $0["\(helper) \(executable)", default: 0] += 1 }
    }

    /// How many times `helper` was started from `executable`.
    static func count(_ helper: String, executable: String) -> Int {
        counts.withLock { $0["\(helper) \(executable)"] ?? 0 }
    }
}
