import Foundation
import TestSupport
import Testing
import UniformTypeIdentifiers
@testable import FileIdentification

/// Every language GitHub Linguist knows has a type: by extension, by whole file name, by the program a `#!`
/// line runs, by a modeline, and, where an extension is several languages', by Linguist's heuristics.
@Suite("Languages: GitHub Linguist's names, file names, interpreters, modelines and heuristics")
struct LanguageTests {
    let identifier = FileIdentifier()

    private func identify(_ text: String, _ name: String? = nil) throws -> Identification {
        try identifier.identify(data: Array(text.utf8), filename: name)
    }

    @Test("languages that had no type have one, named as Linguist names them, with Magika's MIME name where it is the only one", arguments: [
        ("build.zig", "const std = @import(\"std\");\npub fn main() void {}\n", "uti.language.zig", "Zig", "text/zig"),
        ("rule.yar", "rule silent_banker : banker\n{\n    strings:\n        $a = {6A 40 68 00 30 00 00}\n    condition:\n        $a\n}\n",
         "uti.language.yara", "YARA", "text/x-yara"),
        ("code.smali", ".class public LHello;\n.super Ljava/lang/Object;\n", "uti.language.smali", "Smali", "application/x-smali"),
        ("page.j2", "<ul>{% for item in items %}<li>{{ item }}</li>{% endfor %}</ul>\n", "uti.language.jinja", "Jinja", "text/x-jinja2-template"),
        ("card.handlebars", "<div class=\"entry\">{{#if author}}<h1>{{firstName}}</h1>{{/if}}</div>\n", "uti.language.handlebars", "Handlebars",
         "text/x-handlebars-template"),
        ("main.swift", "import Foundation\nprint(\"hello\")\n", "public.swift-source", "Swift", "text/x-swift"),
    ])
    func languagesHaveTypes(name: String, text: String, identifier: String, language: String, mimeType: String) throws {
        let found = try identify(text, name)
        #expect(found.type.identifier == identifier, "\(name): \(found.type.identifier)")
        #expect(found.type.tags[.linguistLanguage]?.first == language)
        #expect(found.mimeType == mimeType, "\(name): \(found.mimeType)")
        #expect(found.type.conforms(to: .sourceCode) || found.type.conforms(to: .text))
    }

    @Test("whole file names are names", arguments: [
        ("GNUmakefile", "public.make-source"), ("Dockerfile", "uti.mime.text.x-dockerfile"), (".bashrc", "public.shell-script"),
        ("Jenkinsfile", "uti.mime.text.x-groovy"), ("go.mod", "uti.language.go-module"), ("CMakeLists.txt", "uti.mime.text.x-cmake"),
    ])
    func fileNames(name: String, identifier: String) throws {
        #expect(try identify("x\n", name).type.identifier == identifier, "\(name)")
    }

    @Test("the program a #! line runs names the language", arguments: [
        ("#!/usr/bin/env node\nconsole.log(1)\n", "com.netscape.javascript-source"),
        ("#!/usr/bin/env runghc\nmain = putStrLn \"hi\"\n", "uti.mime.text.x-haskell"),
        ("#!/usr/bin/env nu\nls | where size > 1kb\n", "uti.mime.application.x-nuscript"),
        ("#!/usr/bin/env python3.12\nprint(1)\n", "public.python-script"),
    ])
    func interpreters(text: String, identifier: String) throws {
        let found = try identify(text)
        #expect(found.type.conforms(to: UTType(identifier) ?? .data), "\(found.type.identifier) for \(text.prefix(30))")
        #expect(found.evidence.content?.isConclusive == true)
    }

    @Test("a Vim or Emacs modeline names the language", arguments: [
        ("# a config\n# vim: set ft=python:\nx = 1\n", "public.python-script"),
        ("// -*- mode: c++ -*-\nint f();\n", "public.c-plus-plus-source"),
        ("; -*- lisp -*-\n(defun f ())\n", "uti.mime.text.x-common-lisp"),
    ])
    func modelines(text: String, identifier: String) throws {
        let found = try identify(text)
        #expect(found.type.identifier == identifier, "\(found.type.identifier) by \(found.evidence.content?.detail ?? "-")")
        #expect(found.evidence.content?.detail.hasPrefix("modeline:") == true)
    }

    @Test("Linguist's heuristics choose among the languages an extension is written in", arguments: [
        ("solve.m", "% solve a system\nfunction x = solve(a, b)\n  x = a \\ b;\nend\n", "uti.mime.text.x-matlab"),
        ("View.m", "#import \"View.h\"\n@implementation View\n@end\n", "public.objective-c-source"),
        ("family.pl", ":- module(family, [parent/2]).\nparent(tom, bob).\n", "uti.mime.text.x-prolog"),
        ("tool.pl", "use strict;\nuse warnings;\nprint \"hi\\n\";\n", "public.perl-script"),
        ("rusers.x", "/*\n * Find out about remote users\n */\nprogram RUSERSPROG {\n\tversion RUSERSVERS_3 { int RUSERSPROC_NUM(void) = 1; } = 3;\n} = 100002;\n",
         "uti.language.rpc"),
        ("tool.1", ".TH TOOL 1 \"2026\" \"tool\"\n.SH NAME\ntool \\- does things\n", "uti.mime.application.x-troff-man"),
    ])
    func heuristics(name: String, text: String, identifier: String) throws {
        let found = try identify(text, name)
        #expect(found.type.identifier == identifier, "\(name): \(found.type.identifier)")
    }

    @Test("a heuristic that a file's own name claim also meets leaves the claim; a fallback rule never overrides it")
    func heuristicsRespectClaims() throws {
        // GDScript, with a comment that GAP's rule (Declare...) also matches: shared-mime-info names .gd GDScript.
        let gdscript = try identify("extends Node\n# Declare member variables here.\nvar a = 2\nfunc _ready():\n\tpass\n", "player.gd")
        #expect(gdscript.type.identifier == "uti.mime.application.x-gdscript", "\(gdscript.type.identifier)")
        #expect(gdscript.evidence.name?.decidedBy == nil)
        // A header stays Apple's C header, whatever Linguist's heuristics think of its content.
        #expect(try identify("@interface View : NSObject\n@end\n", "View.h").type == .cHeader)
        // The chosen language is said in the name's evidence.
        let matlab = try identify("% the answer\nfunction x = f()\n  x = 1;\nend\n", "f.m")
        #expect(matlab.evidence.name?.decidedBy?.contains("MATLAB") == true, "\(matlab.evidence.name?.decidedBy ?? "-")")
    }

    @Test("uti types lists the languages as source code")
    func sourceCodeTypesIncludeTheLanguages() throws {
        let languages = Set(TypeDatabase.shared.declarations.filter { $0.tags[.linguistLanguage] != nil }.map(\.identifier))
        #expect(languages.count >= 800, "\(languages.count)")
        let zig = try #require(UTType("uti.language.zig"))
        #expect(zig.conforms(to: .sourceCode))
        #expect(UTType(filenameExtension: "zig") == zig)
        #expect(zig.tags[.magikaLabel] == ["zig"])
    }

    /// Texts of many kinds, to try every heuristic condition on.
    private static let sampleTexts: [String] = [
        "use strict;\nuse warnings;\npackage Foo::Bar;\nour @EXPORT = qw(x);\nmy $x = Foo->new;\n1;\n",
        "use v6;\nmy class Point { has $.x; }\nmodule M { }\n",
        ":- module(family, [parent/2]).\nparent(tom, bob).\n",
        "#include <vector>\n#include <string>\ntemplate <typename T> class Box { public:\n  T v; };\nnamespace n { }\n",
        "#import <Foundation/Foundation.h>\n@interface View : NSObject\n@property int x;\n@end\n",
        "# Title\n\nSome *text* with a [link](x).\n\n> quote\n",
        ";; machine description\n(define_insn \"addsi3\"\n  [(set (match_operand:SI 0)])\n",
        "CREATE OR REPLACE FUNCTION f() RETURNS int AS $$\nBEGIN\n  RETURN 1;\nEND;\n$$ LANGUAGE plpgsql;\n",
        "SELECT * FROM t WHERE x = 1;\nGO\nDECLARE @x int;\n",
        "127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost\n10.0.0.0/8 intranet.example\n",
        "*help.txt*\tFor Vim version 9.0\n\n vim:tw=78:ts=8:ft=help:norl:\n",
        "[Adblock Plus 2.0]\n! Title: list\n||ads.example.com^\n",
        "<emu-clause id=\"sec\"><h1>Title</h1></emu-clause>\n",
        "{\"swagger\": \"2.0\", \"info\": {}}\n",
        "openapi: 3.0.1\ninfo:\n  title: x\n",
        ".TH TOOL 1 \"2026\" \"tool\"\n.SH NAME\ntool \\- does things\n",
        ".Dd $Mdocdate$\n.Dt TOOL 1\n.Os\n.Sh NAME\n",
        "<?hh // strict\nfunction f(): int { return 1; }\n",
        "<?php echo 1; ?>\n",
        "% MATLAB\nfunction x = solve(a, b)\n  x = a \\ b;\nend\n",
        "module Main where\nimport Data.List\nmain = print 1\n",
        "\tmov eax, 1\n\tdb 0x90\nsection .text\n",
        "",
        "\n\n   \n",
        "plain words, nothing else\nα β γ — unicode: ١٢٣ and spaces\u{00A0}here\n",
    ]

    @Test("the generator's literal filters never change a heuristic condition's answer")
    func heuristicFiltersAreConservative() throws {
        var checked = 0
        var filtered = 0
        for ext in Languages.heuristicExtensions {
            for rule in Languages.rules(ext) ?? [] {
                for condition in rule.conditions {
                    var bare = condition
                    bare.literals = []
                    bare.foldedLiterals = []
                    if !condition.literals.isEmpty || !condition.foldedLiterals.isEmpty { filtered += 1 }
                    // Each text, and each text with the condition's own literals in it (so the filter passes
                    // and the pattern is what is tried).
                    let literals = condition.literals + condition.foldedLiterals
                    let texts = Self.sampleTexts + Self.sampleTexts.prefix(6).map { $0 + literals.joined(separator: "\n") + "\n" }
                    for text in texts {
                        var lowered: [UInt8]?, none: [UInt8]?
                        let fast = condition.holds(in: text, lowered: &lowered)
                        let slow = bare.holds(in: text, lowered: &none)
                        #expect(fast == slow, "\(ext): \(condition.pattern.prefix(80)) on \(text.prefix(40).debugDescription)")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked > 10_000, "\(checked)")
        #expect(filtered > 100, "\(filtered) conditions have a literal filter")
    }

    @Test("PCRE2 reads every heuristic's pattern as the generator writes it")
    func pcre2ReadsEveryPattern() throws {
        var unread: [String] = []
        var count = 0
        for ext in Languages.heuristicExtensions {
            for rule in Languages.rules(ext) ?? [] {
                for condition in rule.conditions {
                    count += 1
                    if PCRE2.pattern(condition.pattern) == nil { unread.append("\(ext): \(condition.pattern.prefix(60))") }
                }
            }
        }
        #expect(count > 300, "\(count)")
        #expect(unread.isEmpty, "\(unread.prefix(10))")
    }

    @Test("Ruby's class intersection (Pod 6's `[\\s&&[^\\r\\n]]`), which PCRE2 reads only as the generator rewrites it")
    func classIntersection() throws {
        // Any run of white space but line breaks before `=begin`, none included: read as ampersands, the class
        // would need exactly one character before it, and would take `&` for one.
        #expect(try identify("=begin pod\nText.\n=end pod\n", "doc.pod").type.identifier == "uti.language.pod-6")
        #expect(try identify(" \t =begin pod\nText.\n", "doc.pod").type.identifier == "uti.language.pod-6")
        #expect(try identify("&=begin pod\nText.\n", "doc.pod").type.identifier != "uti.language.pod-6")
        #expect(try identify("=head1 NAME\n\nx\n\n=cut\n", "old.pod").type.identifier != "uti.language.pod-6")
    }

    @Test("heuristics with lookbehind and subroutine calls decide too: a hosts file, an Adblock list named .txt")
    func heuristicsWithPCRE2Features() throws {
        let hosts = try identify("127.0.0.1\tlocalhost\n10.1.2.3\tbuild.example build\n", "hosts.txt")
        #expect(hosts.type.identifier == "uti.language.hosts-file", "\(hosts.type.identifier)")
        let adblock = try identify("[Adblock Plus 2.0]\n! Title: list\n||ads.example.com^\n", "filters.txt")
        #expect(adblock.type.identifier == "uti.language.adblock-filter-list", "\(adblock.type.identifier)")
        // Plain text stays plain.
        #expect(try identify("Some notes.\nNothing more.\n", "notes.txt").type == .plainText)
    }

}
