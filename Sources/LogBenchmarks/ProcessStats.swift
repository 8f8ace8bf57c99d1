import Foundation
import Synchronization

/// Readings of this process from `/proc/self`: memory and bytes written to storage.
public enum ProcessStats {
    /// Peak resident set size (`VmHWM`), mapped file pages included.
    public static var peakResidentBytes: Int { statusField("VmHWM") }
    /// Current anonymous resident memory (`RssAnon`): the process's own memory, not the mapped file.
    public static var anonymousResidentBytes: Int { statusField("RssAnon") }
    /// Bytes this process caused to be written to storage (`write_bytes` of `/proc/self/io`).
    public static var storageWriteBytes: Int {
        guard let text = try? String(contentsOfFile: "/proc/self/io", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix("write_bytes:") {
            return Int(line.dropFirst("write_bytes:".count).trimmingCharacters(in: .whitespaces)) ?? 0
        }
        return 0
    }

    /// Resets the kernel's peak resident set size (`VmHWM`) to the current size, so a phase can
    /// measure its own peak (writes 5 to `/proc/self/clear_refs`).
    public static func resetPeakResident() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }

    private static func statusField(_ name: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 2, let kib = Int(fields[1]) { return kib * 1024 }
        }
        return 0
    }
}

/// Tracks the largest anonymous memory seen across samples.
public struct AnonymousMemoryPeak: Sendable {
    public private(set) var peak = 0
    public init() {}
    public mutating func sample() { peak = max(peak, ProcessStats.anonymousResidentBytes) }
}

/// Monotonic time for measurements.
public struct Stopwatch: Sendable {
    private let start = ContinuousClock.now
    public init() {}
    public var seconds: Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}

/// The largest anonymous memory seen, sampled from callbacks that may run on any thread.
public final class SharedMemoryPeak: Sendable {
    private let value = Mutex(0)
    public init() {}
    public func sample() {
        let current = ProcessStats.anonymousResidentBytes
        value.withLock { $0 = max($0, current) }
    }
    public var peak: Int { value.withLock { $0 } }
}
