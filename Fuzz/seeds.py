#!/usr/bin/env python3
"""Makes the seed corpus of every fuzz target: small, valid (or nearly valid) inputs of each format the target
reads, so that the fuzzer starts from deep inside the parsers. Standard library only; nothing is copied from
elsewhere.

    python3 Fuzz/seeds.py OUT_DIR      # OUT_DIR/<target>/<seed>
"""
import bz2
import datetime
import gzip
import io
import json
import lzma
import os
import plistlib
import shutil
import struct
import subprocess
import sys
import tarfile
import tempfile
import zipfile


def tar_bytes(entries, mode="w"):
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode=mode) as archive:
        for name, data in entries:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mtime = 1_700_000_000
            archive.addfile(info, io.BytesIO(data))
        link = tarfile.TarInfo("link")
        link.type = tarfile.SYMTYPE
        link.linkname = "../etc/passwd"
        archive.addfile(link)
        hard = tarfile.TarInfo("hard")
        hard.type = tarfile.LNKTYPE
        hard.linkname = entries[0][0]
        archive.addfile(hard)
    return buffer.getvalue()


def ar_bytes(entries):
    output = b"!<arch>\n"
    for name, data in entries:
        output += f"{name + '/':<16}{1700000000:<12}{0:<6}{0:<6}{0o644:<8o}{len(data):<10}`\n".encode() + data
        if len(data) % 2:
            output += b"\n"
    return output


def newc_bytes(entries):
    output = b""
    for index, (name, data) in enumerate(entries + [("TRAILER!!!", b"")]):
        encoded = name.encode() + b"\0"
        mode = 0o100644 if name != "TRAILER!!!" else 0
        header = b"070701" + b"".join(b"%08X" % value for value in
                                     (index + 1, mode, 0, 0, 1, 1_700_000_000, len(data), 0, 0, 0, 0, len(encoded), 0))
        output += header + encoded
        output += b"\0" * (-len(output) % 4) + data
        output += b"\0" * (-len(output) % 4)
    return output


def warc_bytes(entries):
    output = b""
    for name, data in entries:
        output += (f"WARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: http://example.com/{name}\r\n"
                   f"WARC-Date: 2024-05-01T12:00:00Z\r\nContent-Length: {len(data)}\r\n\r\n").encode() + data + b"\r\n\r\n"
    return output


def archives():
    """Small archives of every kind libarchive reads: the standard library's where it writes one, bsdtar's
    (libarchive's own writer) and 7z's where the machine has them."""
    members = [("notes.txt", b"three lines\nof plain\ntext\n"), ("dir/pic.png", bytes.fromhex("89504E470D0A1A0A0000000D49484452")),
               ("run.sh", b"#!/bin/sh\necho hi\n")]
    inner = zip_bytes([("inside.txt", b"inside\n")])
    seeds = {
        "tar": tar_bytes(members), "tar-gz": tar_bytes(members, "w:gz"), "tar-bz2": tar_bytes(members, "w:bz2"),
        "tar-xz": tar_bytes(members, "w:xz"), "zip": zip_bytes(members), "zip-in-tar": tar_bytes([("inner.zip", inner)] + members),
        "tar-in-zip": zip_bytes([("inner.tar", tar_bytes(members))]), "gzip-stream": gzip.compress(b"hello\n" * 50),
        "bzip2-stream": bz2.compress(b"hello\n" * 50), "xz-stream": lzma.compress(b"hello\n" * 50),
        "ar": ar_bytes([("notes.txt", members[0][1]), ("data.tar.gz", tar_bytes(members, "w:gz"))]), "cpio-newc": newc_bytes(members),
        "warc": warc_bytes(members), "nested": zip_bytes([("a.zip", zip_bytes([("b.zip", inner)]))]),
    }
    bsdtar, sevenzip = shutil.which("bsdtar"), shutil.which("7z")
    if bsdtar or sevenzip:
        with tempfile.TemporaryDirectory() as work:
            source = os.path.join(work, "src")
            for name, data in members:
                os.makedirs(os.path.dirname(os.path.join(source, name)), exist_ok=True)
                with open(os.path.join(source, name), "wb") as handle:
                    handle.write(data)
            names = [name for name, _ in members]
            made = {}
            if bsdtar:
                for seed, arguments in {"7z": ["--format", "7zip"], "iso": ["--format", "iso9660"], "xar": ["--format", "xar"],
                                        "cpio-odc": ["--format", "cpio"], "tar-zstd": ["--zstd"], "tar-lz4": ["--lz4"], "tar-lzip": ["--lzip"],
                                        "pax": ["--format", "pax"]}.items():
                    made[seed] = [bsdtar, "-c"] + arguments + ["-f", os.path.join(work, seed), "-C", source] + names
            if sevenzip:
                made["7z-encrypted"] = [sevenzip, "a", "-bd", "-psecret", os.path.join(work, "7z-encrypted")] + names
            for seed, command in made.items():
                if subprocess.run(command, cwd=source, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0:
                    with open(os.path.join(work, seed) + (".7z" if seed == "7z-encrypted" else ""), "rb") as handle:
                        seeds[seed] = handle.read()
    return seeds


def zip_bytes(entries, stored_first=None, zip64=False):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", allowZip64=True) as archive:
        if stored_first:
            archive.writestr(zipfile.ZipInfo(stored_first[0]), stored_first[1], compress_type=zipfile.ZIP_STORED)
        for name, data in entries:
            info = zipfile.ZipInfo(name)
            with archive.open(info, "w", force_zip64=zip64) as entry:
                entry.write(data)
    return buffer.getvalue()


def ole2(stream_names, clsid=b"\0" * 16):
    """A compound file of 512-byte sectors: header, one FAT sector (sector 0), one directory sector (sector 1)."""
    header = bytearray(512)
    header[0:8] = bytes.fromhex("D0CF11E0A1B11AE1")
    struct.pack_into("<HHHH", header, 24, 0x3E, 3, 0xFFFE, 9)   # minor, major version, byte order, sector shift
    struct.pack_into("<H", header, 32, 6)                         # mini sector shift
    struct.pack_into("<I", header, 44, 1)                         # FAT sectors
    struct.pack_into("<I", header, 48, 1)                         # first directory sector
    struct.pack_into("<I", header, 56, 4096)
    struct.pack_into("<I", header, 60, 0xFFFFFFFE)
    struct.pack_into("<I", header, 68, 0xFFFFFFFE)
    for index in range(109):
        struct.pack_into("<I", header, 76 + index * 4, 0 if index == 0 else 0xFFFFFFFF)
    fat = bytearray(b"\xff" * 512)
    struct.pack_into("<II", fat, 0, 0xFFFFFFFD, 0xFFFFFFFE)        # sector 0: FAT; sector 1: end of the directory chain
    directory = bytearray(512)
    for index, name in enumerate(["Root Entry"] + stream_names[:3]):
        offset = index * 128
        encoded = (name + "\0").encode("utf-16-le")
        directory[offset:offset + len(encoded)] = encoded
        struct.pack_into("<H", directory, offset + 64, len(encoded))
        directory[offset + 66] = 5 if index == 0 else 2
        if index == 0:
            directory[offset + 80:offset + 96] = clsid
    return bytes(header + fat + directory)


def declarations(binary=False):
    plist = {"UTExportedTypeDeclarations": [
        {"UTTypeIdentifier": "com.example.seed-notebook", "UTTypeConformsTo": ["public.json", "public.data"],
         "UTTypeDescription": "Seed notebook", "UTTypeReferenceURL": "https://example.com",
         "UTTypeTagSpecification": {"public.filename-extension": ["seednb", "snb"], "public.mime-type": "application/x-seed"}},
        {"UTTypeIdentifier": "com.example.seed-child", "UTTypeConformsTo": "com.example.seed-notebook"},
    ], "UTImportedTypeDeclarations": [
        {"UTTypeIdentifier": "org.example.imported", "UTTypeConformsTo": ["public.text"], "UTTypeVersion": 2,
         "UTTypeTagSpecification": {"public.filename-extension": "imp"}},
    ]}
    return plistlib.dumps(plist, fmt=plistlib.FMT_BINARY if binary else plistlib.FMT_XML)


def manifest(binary=False):
    plist = {"CFBundleIdentifier": "com.example.seed", "CFBundleName": "Seed", "LSSupportsOpeningDocumentsInPlace": True,
             "UIFileSharingEnabled": False,
             "CFBundleDocumentTypes": [
                 {"CFBundleTypeName": "Images", "LSItemContentTypes": ["public.image"], "CFBundleTypeRole": "Viewer", "LSHandlerRank": "Owner"},
                 {"CFBundleTypeExtensions": ["log", "*"], "CFBundleTypeMIMETypes": ["text/plain"], "CFBundleTypeRole": "Editor"},
             ]}
    plist.update(plistlib.loads(declarations()))
    return plistlib.dumps(plist, fmt=plistlib.FMT_BINARY if binary else plistlib.FMT_XML)


def framed(records):
    """`uti identify --framed -`'s input: each record its name's length (4 bytes), name, content length (8), content."""
    return b"".join(struct.pack(">I", len(name)) + name + struct.pack(">Q", len(content)) + content for name, content in records)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    odf = zip_bytes([("content.xml", b"<office:document-content/>"), ("META-INF/manifest.xml", b"<manifest/>")],
                    stored_first=("mimetype", b"application/vnd.oasis.opendocument.text"))
    docx = zip_bytes([("[Content_Types].xml", b"<Types/>"), ("_rels/.rels", b"<Relationships/>"), ("word/document.xml", b"<w:document/>")])
    epub = zip_bytes([("META-INF/container.xml", b"<container/>"), ("OEBPS/content.opf", b"<package/>")],
                     stored_first=("mimetype", b"application/epub+zip"))
    jar = zip_bytes([("META-INF/MANIFEST.MF", b"Manifest-Version: 1.0\n"), ("a/B.class", b"\xca\xfe\xba\xbe")])
    zip64 = zip_bytes([("big.bin", b"x" * 100)], zip64=True)
    tar = io.BytesIO()
    with tarfile.open(fileobj=tar, mode="w") as archive:
        info = tarfile.TarInfo("hello.txt")
        info.size = 6
        archive.addfile(info, io.BytesIO(b"hello\n"))
    word = ole2(["WordDocument", "\x05SummaryInformation"])
    msi = ole2(["\x05SummaryInformation"], clsid=bytes.fromhex("841006000000000000C0000000000046"))
    files = {
        "FuzzIdentify": {
            "png": bytes.fromhex("89504E470D0A1A0A0000000D4948445200000001000000010806000000"),
            "jpeg": bytes.fromhex("FFD8FFE000104A46494600010100000100010000FFD9"),
            "gif": b"GIF89a\x01\x00\x01\x00\x00\x00\x00;",
            "pdf": b"%PDF-1.7\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n",
            "elf": b"\x7fELF\x02\x01\x01" + b"\0" * 57,
            "text": b"plain text, a line of it\nand another\n",
            "utf16": "text in UTF-16\n".encode("utf-16"),
            "script": b"#!/bin/sh\necho hello\n",
            "html": b"<!DOCTYPE html><html><body>hi</body></html>",
            "xml": b"<?xml version='1.0'?><svg xmlns='http://www.w3.org/2000/svg'/>",
            "json": b'{"a": [1, 2, {"b": null}]}',
            "gzip": gzip.compress(b"hello"),
            "tar": tar.getvalue(),
            "odf": odf, "docx": docx, "epub": epub, "jar": jar, "zip64": zip64,
            "ole2-word": word, "ole2-msi": msi,
            "plist-xml": declarations(), "plist-binary": declarations(binary=True),
            "mp4": b"\0\0\0\x18ftypmp42\0\0\0\0mp42isom",
            "riff-wave": b"RIFF\x24\0\0\0WAVEfmt \x10\0\0\0\x01\0\x01\0\x44\xac\0\0\x88\x58\x01\0\x02\0\x10\0data\0\0\0\0",
            "empty": b"",
        },
        "FuzzDeclarations": {"xml": declarations(), "binary": declarations(binary=True)},
        "FuzzManifest": {"xml": manifest(), "binary": manifest(binary=True)},
        "FuzzZip": {"odf": odf, "docx": docx, "epub": epub, "jar": jar, "zip64": zip64},
        "FuzzOLE2": {"word": word, "msi": msi},
        "FuzzArchive": archives(),
        # A configuration shaped like Magika's (labels, thresholds, an overwrite map), and JSON's corners.
        "FuzzModelConfiguration": {
            "config": json.dumps({"beg_size": 1024, "mid_size": 0, "end_size": 1024, "use_inputs_at_offsets": False,
                                  "medium_confidence_threshold": 0.5, "min_file_size_for_dl": 8, "padding_token": 256,
                                  "block_size": 4096, "target_labels_space": ["python", "txt", "randomtxt", "zig"],
                                  "thresholds": {"zig": 0.9}, "overwrite_map": {"randomtxt": "txt"},
                                  "protection": "none", "aes_key_hex": "", "version_major": 3}).encode(),
            "escapes": b'["\\u00e9\\ud83d\\ude00\\n\\"", -1.5e-3, true, false, null, {}, []]',
        },
        # Framed records: three files (one empty, one with a name that is not UTF-8, one past the reader's
        # 256-byte memory share), then one cut short.
        "FuzzFramedRecords": {
            "records": framed([(b"photo.png", bytes.fromhex("89504E470D0A1A0A")), (b"empty", b""),
                               (b"caf\xe9\n.txt", b"words " * 100)]),
            "cut-short": framed([(b"a.txt", b"hello")])[:-2],
        },
        # What a sync reads from a remote: a key-value store (every value kind, a removal) and an attributes'
        # manifest (a file's and a package's attributes, binary values).
        "FuzzSyncedFiles": {
            "store": plistlib.dumps({"values": {"s": "t\u00e9xt", "i": -3, "r": 0.5, "b": True, "d": b"\0\xff",
                                                "t": datetime.datetime(2026, 11, 26, 10, 0, 0), "a": ["x", 1], "m": {"k": []}},
                                     "modified": {"s": 1.5, "i": 2}, "removed": {"gone": 3.25}}),
            "store-binary": plistlib.dumps({"values": {"k": "v"}, "modified": {"k": 1.0}, "removed": {}}, fmt=plistlib.FMT_BINARY),
            "manifest": plistlib.dumps({"Documents/note.txt": {"user.color": b"red"}, "Documents/Trip.rtfd": {"user.tag": b"\0\x01"}}),
        },
    }
    for target, seeds in files.items():
        directory = os.path.join(out, target)
        os.makedirs(directory, exist_ok=True)
        for name, data in seeds.items():
            with open(os.path.join(directory, name), "wb") as handle:
                handle.write(data)
    print(f"seeds: {sum(len(s) for s in files.values())} files in {out}")


if __name__ == "__main__":
    main()
