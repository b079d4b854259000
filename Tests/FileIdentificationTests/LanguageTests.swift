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
}
