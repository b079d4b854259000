// Nothing here is used: the import is for the linker. A release build links the Swift runtime into `uti`
// (Package.swift), and FoundationEssentials, which the libraries and swift-argument-parser use, then needs the
// static libraries it is built on. The compiler names them in the objects of a module that imports it while
// compiling with `-static-stdlib`, as this one does in release builds; the library modules, compiled as any
// client compiles them, do not.
internal import FoundationEssentials
