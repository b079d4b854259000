import Foundation
import ArgumentParser
import Testing
@testable import uti

/// `uti identify` and `uti info` in their common forms are parsed by a few lines of our own (start-up time);
/// everything else goes to swift-argument-parser. Each vector here is read both ways: where the fast path
/// takes it, swift-argument-parser must accept it and make the same job; where it leaves it, the parser
/// decides (an error, help, or a form the fast path does not know).
@Suite("The fast argument path reads what swift-argument-parser reads")
struct FastPathTests {
    /// The arguments after `uti`, and whether the fast path is expected to take them.
    static let vectors: [(arguments: [String], fast: Bool)] = [
        (["identify", "a.txt"], true),
        (["identify", "--mime", "a.txt", "b.png"], true),
        (["identify", "--json", "a", "b"], true),
        (["identify", "--no-content", "x.rmd"], true),
        (["identify", "-L", "link"], true),
        (["identify", "--model", "--json", "a"], true),
        (["identify", "a.txt", "--mime"], true),
        (["identify", "--", "-weird-name"], true),
        (["identify", "--", "--mime"], true),
        (["identify", "a", "--", "-"], true),
        (["identify", "-"], true),
        (["identify", "-", "-"], true),
        (["identify", "--name", "photo.png", "-"], true),
        (["identify", "--types", "extra.plist", "a"], true),
        (["identify", "--types", "one.plist", "--types", "two.plist", "-L", "--json", "a"], true),
        (["identify", "--mime-names", "magika", "--mime", "a"], true),
        (["identify", "--json", "a", "--mime-names", "libmagic"], true),
        (["identify", "--mime-names", "iana", "a"], false),
        (["identify", "a", "--mime-names"], false),
        (["identify", "--mime", "--json", "a"], false),
        (["identify", "--unknown", "a"], false),
        (["identify", "-x", "a"], false),
        (["identify"], false),
        (["identify", "--name", "x.png", "a"], false),
        (["identify", "--name"], false),
        (["identify", "--name=x.png", "-"], false),
        (["identify", "--types=extra.plist", "a"], false),
        (["identify", "--name", "a.png", "--name", "b.png", "-"], false),
        (["identify", "--help"], false),
        (["identify", "--framed", "-"], true),
        (["identify", "--json", "--framed", "-"], true),
        (["identify", "--framed", "a"], false),
        (["identify", "--framed", "--mime", "-"], false),
        (["identify", "--json", "--json", "a"], true),
        (["identify", "-b", "--mime-type", "a"], true),
        (["identify", "--brief", "-i", "a", "b"], true),
        (["identify", "--mime-encoding", "-0", "--separator", " =>", "a"], true),
        (["identify", "-f", "names.txt"], true),
        (["identify", "--files-from", "-", "a"], true),
        (["identify", "-E", "-L", "--dereference", "a"], true),
        (["identify", "-bi", "a"], false),
        (["identify", "-s", "/dev/sda"], false),
        (["identify", "--mime-type", "-i", "a"], false),
        (["identify", "--json", "-b", "a"], false),
        (["identify", "--separator", "x", "--separator", "y", "a"], false),
        (["info", "public.jpeg"], true),
        (["info", "--json", "public.jpeg", "public.png"], true),
        (["info", "--types", "extra.plist", "com.example.x"], true),
        (["info"], true),
        (["info", "--json"], true),
        (["info", "--bogus", "public.jpeg"], false),
        (["classify", "dir"], false),
        ([], false),
    ]

    @Test("each vector is read the same way by both parsers", arguments: vectors.indices)
    func sameReading(index: Int) throws {
        let (arguments, fast) = Self.vectors[index]
        let fastJob = FastPath.parse(arguments)
        #expect((fastJob != nil) == fast, "the fast path \(fast ? "should take" : "should leave") \(arguments)")
        guard let fastJob else { return }
        // What swift-argument-parser makes of the same vector.
        let command = try UTI.parseAsRoot(arguments)
        switch fastJob {
        case .identify(let job):
            let parsed = try #require(command as? UTI.Identify)
            #expect(parsed.job == job, "\(arguments)")
        case .info(let job):
            let parsed = try #require(command as? UTI.Info)
            #expect(parsed.job == job, "\(arguments)")
        }
    }

    @Test("what the fast path leaves, the parser refuses or answers with help", arguments: vectors.indices.filter { !vectors[$0].fast })
    func leftToTheParser(index: Int) {
        let arguments = Self.vectors[index].arguments
        // The fast path declines these; the parser must either refuse them or produce something other than a
        // plain job the fast path would have made (help, another command, a form with `=`).
        let usesEquals = arguments.contains { $0.hasPrefix("--") && $0.contains("=") }
        switch Result(catching: { try UTI.parseAsRoot(arguments) }) {
        case .failure(let error):
            // A usage error (64) or help (0), never for a `--name=value` form, which the parser takes.
            #expect(!usesEquals, "\(arguments): the parser refused a form it takes: \(error)")
            #expect([0, 64].contains(UTI.exitCode(for: error).rawValue), "\(arguments): \(error)")
        case .success(let command):
            // Help, the root command, another subcommand; or `identify` in a form left to the parser on purpose.
            let plainJob = command is UTI.Identify || command is UTI.Info
            // Left on purpose: `--name=value`, combined short flags (`-bi`), a single-valued option given twice.
            let combinedShort = arguments.contains { $0.hasPrefix("-") && !$0.hasPrefix("--") && $0.count > 2 }
            let repeated = ["--name", "--separator"].contains { option in arguments.filter { $0 == option }.count > 1 }
            let handledElsewhere = !plainJob || arguments.contains { $0.contains("=") } || combinedShort || repeated
            #expect(handledElsewhere, "\(arguments) parses as \(type(of: command)) but the fast path declined it")
        }
    }

    @Test("the fast path knows every option swift-argument-parser defines for identify, spelt the same, and no other")
    func sameOptions() throws {
        let dump = try UTIBinary.run(["identify", "--experimental-dump-help"])
        #expect(dump.status == 0, "\(dump.standardError)")
        struct Tool: Decodable {
            struct Command: Decodable {
                struct Argument: Decodable {
                    struct Name: Decodable { var kind: String; var name: String }
                    var kind: String
                    var names: [Name]?
                }
                var arguments: [Argument]
            }
            var command: Command
        }
        let tool = try JSONDecoder().decode(Tool.self, from: Data(dump.standardOutput.utf8))
        let names: [Tool.Command.Argument.Name] = tool.command.arguments.flatMap { $0.names ?? [] }
        let spelt: [String] = names.map { name in (name.kind == "short" ? "-" : "--") + name.name }
        let defined = Set(spelt).subtracting(["-h", "--help", "--version"])
        let switches: [String] = IdentifyJob.Switch.allCases.flatMap(\.spellings)
        let valued: [String] = IdentifyJob.Valued.allCases.flatMap(\.spellings)
        let known = Set(switches + valued + [TypeOptions.spelling, MIMENamesOption.spelling])
        #expect(defined == known, "defined by the parser only: \(defined.subtracting(known)); by the fast path only: \(known.subtracting(defined))")
    }
}
