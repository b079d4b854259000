import Dispatch
import Foundation
import Synchronization
import TestSupport
import Testing

/// Runs the built `uti` executable, the way a person or a script would.
struct CommandResult {
    var status: Int32
    var standardOutput: String
    var standardError: String

    var lines: [String] { standardOutput.split(separator: "\n").map(String.init) }
}

enum UTIBinary {
    /// `uti`, beside the test bundle in the build products directory.
    static let url = Tools.builtProduct("uti")

    /// Runs `uti` with arguments given as bytes (which need not be UTF-8), through `env`'s exec.
    static func run(rawArguments: [[UInt8]]) throws -> CommandResult {
        // Foundation's Process takes Strings; a tiny shell script passes the raw bytes on from a file.
        let directory = try TemporaryDirectory(prefix: "uti-args")
        var text: [UInt8] = Array("exec \"$UTI\"".utf8)
        for argument in rawArguments {
            text += Array(" '".utf8) + argument + Array("'".utf8)
        }
        let script = try directory.write(text, to: "run.sh")
        return try run(executable: URL(filePath: "/bin/sh"), [script], environment: ["UTI": url.path])
    }

    /// Runs `uti`; with `runAs`, as that user (through `setpriv`), for checks that root would pass.
    static func run(_ arguments: [String], environment: [String: String] = [:], input: Data? = nil, runAs user: String? = nil) throws -> CommandResult {
        if let user {
            return try run(executable: URL(filePath: "/usr/bin/setpriv"),
                           ["--reuid=\(user)", "--regid=nogroup", "--clear-groups", url.path] + arguments,
                           environment: environment, input: input)
        }
        return try run(executable: url, arguments, environment: environment, input: input)
    }

    static func run(executable: URL, _ arguments: [String], environment: [String: String] = [:], input: Data? = nil) throws -> CommandResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        merged.removeValue(forKey: "UTI_TYPES_PATH")
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        let output = Pipe.closingOnExec(), error = Pipe.closingOnExec(), standardInput = Pipe.closingOnExec()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = standardInput
        try process.run()
        if let input { standardInput.fileHandleForWriting.write(input) }
        try standardInput.fileHandleForWriting.close()
        // Read both pipes to the end before waiting, so that a full pipe cannot stall the child.
        let errorData = DrainedData()
        let reader = Thread { errorData.set(error.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CommandResult(status: process.terminationStatus,
                             standardOutput: String(decoding: outputData, as: UTF8.self),
                             standardError: String(decoding: errorData.wait(), as: UTF8.self))
    }
}

/// Data handed over by the thread that drains standard error.
final class DrainedData: Sendable {
    private let data = Mutex<Data?>(nil)
    private let done = DispatchSemaphore(value: 0)

    func set(_ value: Data) {
        data.withLock { $0 = value }
        done.signal()
    }

    /// Waits for the data, once.
    func wait() -> Data {
        done.wait()
        return data.withLock { $0 ?? Data() }
    }
}

/// Parses one line of `--json` output.
func jsonObject(_ line: String) throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
    return try #require(object as? [String: Any])
}
