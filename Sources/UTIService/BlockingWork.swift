import NIOCore
import NIOPosix

/// Where the service's blocking work runs: never on the threads that run handlers (Swift Concurrency's global
/// executor, as wide as the machine has cores: a handler that blocked would stall the requests behind it, health
/// checks included). Handlers `await` these pools.
///
/// - `identification`: identifying bodies (libmagic, reads of spooled files), writing bodies past their
///   memory share to their temporary files (multipart parts too, split as they arrive), reading the registry's state file
///   (`GET /apps`: no lock). NIO's blocking pool, one thread per core.
/// - `registry`: what takes the registry lock, which another process may hold (routes, with their
///   deliveries and `fsync`s; Inbox listings): a pool of its own, so that requests waiting on the lock never
///   keep anything else waiting. Its waits are bounded by `Registry.lockTimeout` (`--lock-timeout`).
/// - `model`: Magika's model's inferences (`IdentificationController`): a pool of its own, whose threads
///   bound the inferences running at once (one per core); requests beyond wait there, not on a loop.
enum BlockingWork {
    static let identification: NIOThreadPool = .singleton

    /// Inferences at once: one per core.
    static let modelThreads = System.coreCount

    static let model: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: modelThreads)
        pool.start()
        return pool
    }()

    /// Threads for the registry: enough for routes to wait on the lock while others read the registry.
    static let registryThreads = 4

    static let registry: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: registryThreads)
        pool.start()
        return pool
    }()
}

/// A value handed to a pool's thread while the task that owns it awaits the result: ownership passes
/// there and back, and nothing else touches the value meanwhile (a request's `SpooledBytes`).
struct HandedOver<Value>: @unchecked Sendable {
    let value: Value
}
