#if canImport(Glibc)
import Glibc
#endif

/// Threads of our own for work that blocks (walking, reading files, waiting on a queue): Dispatch's
/// shared pool has one thread per processor, and a walker and its workers blocked in it would leave
/// the processors idle.
enum Threads {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Runs `body` on a new detached thread.
    ///
    /// The corresponding C functions are `pthread_create` and `pthread_detach`.
    static func spawn(_ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { raw in
            if let raw {
                Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run()
            }
            return nil
        }, context)
        if result == 0 {
            pthread_detach(thread)
        } else {
            // No thread to be had: run it here rather than lose the work.
            Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
        }
    }
}
