import Synchronization

/// Bytes shared by many `SpooledBytes` (a server's uploads in flight): what they may keep in memory
/// together (a spool that finds no room there writes to its file instead), or what their temporary files
/// may hold together on disk (a spool that finds no room there fails with `ENOSPC`, and a server answers
/// 503 rather than fill the disk).
public final class ByteBudget: Sendable {
    /// The bytes the spools may hold together.
    public let capacity: Int
    private let available: Atomic<Int>

    /// A budget of `capacity` bytes, none of them taken; a negative capacity counts as 0.
    public init(capacity: Int) {
        self.capacity = max(0, capacity)
        available = Atomic(max(0, capacity))
    }

    /// The bytes not taken now.
    public var remaining: Int { available.load(ordering: .relaxed) }

    /// Takes as much of `wanted` as there is room for; what it took.
    func take(upTo wanted: Int) -> Int {
        var current = available.load(ordering: .relaxed)
        while true {
            let granted = min(current, wanted)
            guard granted > 0 else { return 0 }
            let (exchanged, original) = available.compareExchange(expected: current, desired: current - granted, ordering: .relaxed)
            if exchanged { return granted }
            current = original
        }
    }

    /// Takes all of `wanted`, or nothing when there is not room for all of it; whether it took it.
    func take(all wanted: Int) -> Bool {
        guard wanted > 0 else { return true }
        var current = available.load(ordering: .relaxed)
        while current >= wanted {
            let (exchanged, original) = available.compareExchange(expected: current, desired: current - wanted, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
        return false
    }

    func giveBack(_ bytes: Int) {
        if bytes > 0 { available.add(bytes, ordering: .relaxed) }
    }
}
