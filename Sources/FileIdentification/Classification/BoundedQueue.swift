import Dispatch
internal import Synchronization

/// A first-in, first-out queue of bounded capacity between threads: producers wait while it is full,
/// consumers while it is empty, so memory stays flat however fast either side runs.
///
/// `close()` ends it: waiting producers are refused, consumers drain what is left and then get `nil`.
final class BoundedQueue<Element: Sendable>: Sendable {
    private struct State {
        var buffer: [Element] = []
        var closed = false
    }

    private let state = Mutex(State())
    /// Free places; a producer takes one before adding.
    private let slots: DispatchSemaphore
    /// Elements (plus one wake-up once closed); a consumer takes one before removing.
    private let items = DispatchSemaphore(value: 0)

    init(capacity: Int) {
        // Created at zero and raised: libdispatch traps when a semaphore is released below the value
        // it was created with, which a queue dropped while full would be.
        slots = DispatchSemaphore(value: 0)
        for _ in 0..<max(1, capacity) { slots.signal() }
    }

    /// Adds `element`, waiting for room; `false` when the queue is closed.
    func push(_ element: Element) -> Bool {
        slots.wait()
        let accepted = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.buffer.append(element)
            return true
        }
        if accepted {
            items.signal()
        } else {
            slots.signal()  // pass the wake-up on to the next refused producer
        }
        return accepted
    }

    /// Removes the oldest element, waiting for one; `nil` once the queue is closed and empty.
    func pop() -> Element? {
        items.wait()
        let element = state.withLock { state -> Element? in
            state.buffer.isEmpty ? nil : state.buffer.removeFirst()
        }
        if element != nil {
            slots.signal()
        } else {
            items.signal()  // closed: let the next consumer see it too
        }
        return element
    }

    /// Ends the queue; elements already in it can still be taken.
    func close() {
        let wasOpen = state.withLock { state -> Bool in
            defer { state.closed = true }
            return !state.closed
        }
        guard wasOpen else { return }
        items.signal()
        slots.signal()
    }
}
