import ArgumentParser
import FileIdentification
#if canImport(Glibc)
import Glibc
#endif

/// The entry point: the commonest invocations of `identify` and `info` are parsed here directly,
/// everything else by swift-argument-parser.
///
/// swift-argument-parser builds its picture of the commands by reflection, which costs about a
/// millisecond at every start; `uti identify FILE` must cost no more than `file FILE`. The fast path
/// accepts only arguments it understands completely and hands anything else (help, a misspelled
/// option, other commands) to swift-argument-parser, so usage errors read the same either way. Both
/// paths run the same `IdentifyJob` and `InfoJob`, and read the same definitions of the options (their
/// spellings, `IdentifyJob.Switch`, `IdentifyJob.usageProblem`): only the loop over the arguments is
/// this file's. (Parsing with swift-argument-parser's definition of `identify` alone, rather than of
/// every command, still cost 0.7 to 1.0 ms of a 2 ms start: measured 2026-11-27, docs/Performance.md.)
@main
enum Main {
    static func main() {
        if let status = FastPath.run(Array(CommandLine.arguments.dropFirst())) {
            exit(status)
        }
        UTI.main()
    }
}

enum FastPath {
    /// A command the fast path parsed completely.
    enum Job: Equatable {
        case identify(IdentifyJob)
        case info(InfoJob)

        func run() -> Int32 {
            switch self {
            case .identify(let job): job.run()
            case .info(let job): job.run()
            }
        }
    }

    /// The exit status when the arguments were handled here, `nil` to leave them to swift-argument-parser.
    static func run(_ arguments: [String]) -> Int32? {
        parse(arguments)?.run()
    }

    /// The job for `arguments` (without the program name), or `nil` for anything but the plain forms of
    /// `identify` and `info` (help, a misspelt option, `--name=value`, other commands): those are
    /// swift-argument-parser's, and a test checks that both read every vector the same way.
    static func parse(_ arguments: [String]) -> Job? {
        guard let command = arguments.first else { return nil }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "identify": return identify(rest).map(Job.identify)
        case "info": return info(rest).map(Job.info)
        default: return nil
        }
    }

    /// `identify`'s arguments read with its own definitions (`IdentifyJob.Switch` and `IdentifyJob.Valued`, the shared options' spellings,
    /// `IdentifyJob.usageProblem`); `nil` for any form swift-argument-parser should read or refuse.
    private static func identify(_ arguments: [String]) -> IdentifyJob? {
        var job = IdentifyJob(paths: [])
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                job.paths.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
            } else if let flag = IdentifyJob.Switch.allCases.first(where: { $0.spellings.contains(argument) }) {
                job.switches.insert(flag)
            } else {
                // An option with a value; anything else (a misspelling, `--name=value`, `-bi`, help) is the parser's.
                guard index < arguments.count else { return nil }
                let value = arguments[index]
                index += 1
                if argument == MIMENamesOption.spelling {
                    // An unknown name is left to swift-argument-parser, which says what the choices are.
                    guard let names = MIMENames(rawValue: value) else { return nil }
                    job.mimeNames = names
                } else if argument == TypeOptions.spelling {
                    job.typeFiles.append(value)
                } else if let option = IdentifyJob.Valued.allCases.first(where: { $0.spellings.contains(argument) }) {
                    switch option {
                    case .name:
                        guard job.name == nil else { return nil }
                        job.name = value
                    case .separator:
                        guard job.separator == IdentifyJob.defaultSeparator else { return nil }
                        job.separator = value
                    case .filesFrom: job.filesFrom.append(value)
                    case .archiveLimit: job.archiveLimits.append(value)
                    }
                } else {
                    return nil
                }
            }
        }
        return job.usageProblem == nil ? job : nil
    }

    private static func info(_ arguments: [String]) -> InfoJob? {
        var job = InfoJob(identifiers: [])
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            switch argument {
            case InfoJob.jsonFlag: job.json = true
            case TypeOptions.spelling:
                guard index < arguments.count else { return nil }
                job.typeFiles.append(arguments[index])
                index += 1
            default:
                guard !argument.hasPrefix("-") else { return nil }
                job.identifiers.append(argument)
            }
        }
        return job
    }
}
