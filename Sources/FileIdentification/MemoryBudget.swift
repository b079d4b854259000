import Synchronization

/// Memory shared by many `SpooledBytes` (a server's uploads in flight): what they may keep in memory
/// together. A spool that finds no room writes to its file instead.
public final class MemoryBudget: Sendable {
    /// The bytes the spools may hold together.
    public let capacity: Int
    private let available: Atomic<Int>

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

    func giveBack(_ bytes: Int) {
        if bytes > 0 { available.add(bytes, ordering: .relaxed) }
    }
}
