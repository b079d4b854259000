"""typedb.pronom: DROID's signature file and container signature file, read and checked."""

import json
import os
import tempfile
import unittest

from typedb.pronom import PronomError, load_containers, load_droid, pronom_table, puid_key, write_pronom_table

DROID = """<?xml version="1.0" encoding="UTF-8"?>
<FFSignatureFile DateCreated="2024-07-08T11:54:20" Version="119" xmlns="http://www.nationalarchives.gov.uk/pronom/SignatureFile">
  <InternalSignatureCollection>
    <InternalSignature ID="20" Specificity="Specific">
      <ByteSequence Reference="BOFoffset">
        <SubSequence MinFragLength="0" Position="1" SubSeqMaxOffset="0" SubSeqMinOffset="0">
          <Sequence>255044462D312E34</Sequence><DefaultShift>9</DefaultShift><Shift Byte="25">8</Shift>
        </SubSequence>
      </ByteSequence>
      <ByteSequence Reference="EOFoffset">
        <SubSequence MinFragLength="0" Position="1" SubSeqMinOffset="0">
          <Sequence>2525454F46</Sequence>
          <LeftFragment MaxOffset="4" MinOffset="0" Position="1">[30:39]</LeftFragment>
          <RightFragment MaxOffset="0" MinOffset="0" Position="1">0A</RightFragment>
          <RightFragment MaxOffset="0" MinOffset="0" Position="1">0D</RightFragment>
        </SubSequence>
      </ByteSequence>
    </InternalSignature>
    <InternalSignature ID="7" Specificity="Specific">
      <ByteSequence>
        <SubSequence MinFragLength="0" Position="1" SubSeqMinOffset="0"><Sequence>6d6f6f76</Sequence></SubSequence>
      </ByteSequence>
    </InternalSignature>
    <InternalSignature ID="99" Specificity="Generic">
      <ByteSequence Reference="BOFoffset">
        <SubSequence Position="1" SubSeqMinOffset="0" SubSeqMaxOffset="0"><Sequence>00</Sequence></SubSequence>
      </ByteSequence>
    </InternalSignature>
  </InternalSignatureCollection>
  <FileFormatCollection>
    <FileFormat ID="616" MIMEType="application/pdf" Name="Acrobat PDF 1.4 - Portable Document Format" PUID="fmt/18" Version="1.4">
      <InternalSignatureID>20</InternalSignatureID><Extension>PDF</Extension><HasPriorityOverFileFormatID>14</HasPriorityOverFileFormatID>
      <HasPriorityOverFileFormatID>4242</HasPriorityOverFileFormatID>
    </FileFormat>
    <FileFormat ID="14" Name="Acrobat PDF - Portable Document Format" PUID="x-fmt/453"><Extension>pdf</Extension></FileFormat>
    <FileFormat ID="70" MIMEType="video/quicktime, video/mp4" Name="QuickTime" PUID="x-fmt/384"><InternalSignatureID>7</InternalSignatureID></FileFormat>
  </FileFormatCollection>
</FFSignatureFile>
"""

CONTAINER = """<?xml version="1.0" encoding="UTF-8"?>
<ContainerSignatureMapping schemaVersion="1.0" signatureVersion="38">
  <ContainerSignatures>
    <ContainerSignature Id="1000" ContainerType="OLE2">
      <Description>Microsoft Word 6.0/95 OLE2</Description>
      <Files>
        <File><Path>WordDocument</Path></File>
        <File><Path>CompObj</Path><BinarySignatures><InternalSignatureCollection><InternalSignature ID="306">
          <ByteSequence Reference="BOFoffset"><SubSequence Position="1" SubSeqMinOffset="40" SubSeqMaxOffset="1024">
            <Sequence>10 00 00 00 'Word.Document.' ['6'-'7'] 00</Sequence></SubSequence></ByteSequence>
        </InternalSignature></InternalSignatureCollection></BinarySignatures></File>
      </Files>
    </ContainerSignature>
    <ContainerSignature Id="2000" ContainerType="ZIP">
      <Description>Unknown</Description><Files><File><Path>META-INF/x</Path></File></Files>
    </ContainerSignature>
  </ContainerSignatures>
  <FileFormatMappings>
    <FileFormatMapping signatureId="1000" Puid="fmt/18"/>
    <FileFormatMapping signatureId="2000" Puid="fmt/99999"/>
  </FileFormatMappings>
  <TriggerPuids><TriggerPuid ContainerType="ZIP" Puid="x-fmt/263"/><TriggerPuid ContainerType="OLE2" Puid="fmt/111"/></TriggerPuids>
</ContainerSignatureMapping>
"""


class PronomTests(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        os.makedirs(os.path.join(self.directory.name, "pronom"))
        self.write("pronom/DROID_SignatureFile_V119.xml", DROID)
        self.write("pronom/container-signature-20240715.xml", CONTAINER)

    def tearDown(self):
        self.directory.cleanup()

    def write(self, name, text):
        with open(os.path.join(self.directory.name, name), "w", encoding="utf-8") as f:
            f.write(text)

    def test_formats_with_their_tags_signatures_and_priorities(self):
        notes = {}
        table = pronom_table(self.directory.name, notes)
        self.assertEqual(table["signatureFile"], {"version": 119, "dateCreated": "2024-07-08T11:54:20"})
        self.assertEqual([f["puid"] for f in table["formats"]], ["fmt/18", "x-fmt/384", "x-fmt/453"])
        pdf = table["formats"][0]
        self.assertEqual((pdf["name"], pdf["version"], pdf["mimeTypes"], pdf["extensions"]),
                         ("Acrobat PDF 1.4 - Portable Document Format", "1.4", ["application/pdf"], ["pdf"]))
        # Priorities are written as format IDs in the file: they become PUIDs; one the file lacks is a note.
        self.assertEqual(pdf["priorityOver"], ["x-fmt/453"])
        self.assertEqual(notes["PRONOM priorities over formats the file does not hold"], ["fmt/18 over ID 4242"])
        # A MIME attribute with several names, comma-separated.
        self.assertEqual(table["formats"][1]["mimeTypes"], ["video/quicktime", "video/mp4"])
        # A signature no format names is left out, and noted.
        self.assertEqual([s["id"] for s in table["signatures"]], [7, 20])
        self.assertEqual(notes["PRONOM signatures no format names"], ["99"])

    def test_byte_sequences_anchors_windows_and_fragments(self):
        _, _, signatures, _ = load_droid(os.path.join(self.directory.name, "pronom/DROID_SignatureFile_V119.xml"))
        pdf = signatures[20]["sequences"]
        self.assertEqual([s["anchor"] for s in pdf], ["BOF", "EOF"])
        self.assertEqual(pdf[0]["subsequences"][0], {"position": 1, "minOffset": 0, "maxOffset": 0, "sequence": "255044462D312E34",
                                                     "left": [], "right": []})
        eof = pdf[1]["subsequences"][0]
        self.assertIsNone(eof["maxOffset"])  # no maximum: anywhere past the minimum
        self.assertEqual(eof["left"], [{"position": 1, "minOffset": 0, "maxOffset": 4, "bytes": "[30:39]"}])
        # Two fragments at one position are alternatives.
        self.assertEqual([f["bytes"] for f in eof["right"]], ["0A", "0D"])
        # No Reference: anywhere in the file; hex is upper-cased.
        self.assertEqual(signatures[7]["sequences"][0]["anchor"], "VAR")
        self.assertEqual(signatures[7]["sequences"][0]["subsequences"][0]["sequence"], "6D6F6F76")

    def test_container_signatures_and_their_formats(self):
        notes = {}
        table = pronom_table(self.directory.name, notes)
        self.assertEqual(table["containerFile"], {"version": 38})
        self.assertEqual(table["containerFormats"], [{"puid": "fmt/18", "signature": 1000}])
        word = table["containerSignatures"][0]
        self.assertEqual((word["id"], word["container"]), (1000, "OLE2"))
        self.assertEqual([f["path"] for f in word["files"]], ["WordDocument", "CompObj"])
        self.assertEqual(word["files"][1]["sequences"][0]["subsequences"][0],
                         {"position": 1, "minOffset": 40, "maxOffset": 1024, "pattern": "10 00 00 00 'Word.Document.' ['6'-'7'] 00"})
        self.assertEqual(notes["PRONOM container signatures for formats the signature file does not hold"], ["2000 -> fmt/99999"])
        self.assertEqual(table["containerTriggers"], [{"container": "OLE2", "puid": "fmt/111"}, {"container": "ZIP", "puid": "x-fmt/263"}])

    def test_what_is_not_a_signature_file_is_refused(self):
        for broken, message in [
            (DROID.replace("255044462D312E34", "25504G"), "not hex"),
            (DROID.replace('PUID="fmt/18"', 'PUID="fmt18"'), "PUID"),
            (DROID.replace("<InternalSignatureID>20</InternalSignatureID>", "<InternalSignatureID>21</InternalSignatureID>"), "not in the file"),
            (DROID.replace('SubSeqMinOffset="40"', 'SubSeqMinOffset="-1"').replace('Position="1" SubSeqMaxOffset="0" SubSeqMinOffset="0"', 'Position="1" SubSeqMaxOffset="0" SubSeqMinOffset="-3"'), "negative"),
            ("<root/>", "not a DROID signature file"),
        ]:
            self.write("pronom/DROID_SignatureFile_V119.xml", broken)
            with self.assertRaises(PronomError) as raised:
                pronom_table(self.directory.name, {})
            self.assertIn(message, str(raised.exception))

    def test_the_table_is_json_one_line_a_record_in_puid_order(self):
        table = pronom_table(self.directory.name, {})
        path = os.path.join(self.directory.name, "pronom.json")
        write_pronom_table(table, path)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        self.assertEqual(json.loads(text), json.loads(json.dumps(table)))
        self.assertEqual(sum(1 for line in text.splitlines() if line.startswith('  {"extensions"')), 3)
        self.assertEqual(sorted(["x-fmt/2", "fmt/10", "fmt/9"], key=puid_key), ["fmt/9", "fmt/10", "x-fmt/2"])

    def test_container_file_refusals(self):
        self.write("pronom/container-signature-20240715.xml", CONTAINER.replace('ContainerType="ZIP"', 'ContainerType="RAR"'))
        with self.assertRaises(PronomError):
            load_containers(os.path.join(self.directory.name, "pronom/container-signature-20240715.xml"))


class PronomTypesTests(unittest.TestCase):
    """add_pronom_types: a PUID on the type that is the format, a type for each version."""

    def test_versions_get_types_conforming_to_their_format_and_a_lone_format_tags_its_type(self):
        from tests.helpers import make_db
        from typedb.pronom import add_pronom_types
        db = make_db({"com.example.zip": ["public.archive"], "com.example.wk1": ["public.data"], "com.example.a": ["public.data"],
                      "com.example.b": ["public.data"]})
        db.claim_mime(db.get("public.png"), "image/png")
        db.claim_mime(db.get("com.example.zip"), "application/zip")
        db.get("com.example.wk1").add_extension("wk1")
        db.get("com.example.a").add_extension("dat")
        db.get("com.example.b").add_extension("dat")
        table = {"formats": [
            {"puid": "fmt/11", "name": "Portable Network Graphics", "version": "1.0", "mimeTypes": ["image/png"], "extensions": ["png"]},
            {"puid": "fmt/12", "name": "Portable Network Graphics", "version": "1.1", "mimeTypes": ["image/png"], "extensions": ["png"]},
            {"puid": "x-fmt/263", "name": "ZIP Format", "version": "", "mimeTypes": ["application/zip"], "extensions": ["zip"]},
            {"puid": "x-fmt/114", "name": "Lotus 1-2-3 Worksheet", "version": "1.0", "mimeTypes": [], "extensions": ["wk1"]},
            {"puid": "fmt/999", "name": "Some Data 2 File", "version": "2", "mimeTypes": ["application/x-nobody"], "extensions": ["dat"]},
        ]}
        created = add_pronom_types(db, table)
        self.assertEqual(sorted(d.identifier for d in created),
                         ["org.nationalarchives.pronom.fmt.11", "org.nationalarchives.pronom.fmt.12", "org.nationalarchives.pronom.fmt.999"])
        png10 = db.get("org.nationalarchives.pronom.fmt.11")
        self.assertEqual((png10.conforms, png10.puids, png10.description), (["public.png"], ["fmt/11"], "Portable Network Graphics (1.0)"))
        self.assertEqual((png10.extensions, png10.mimes), ([], []))
        # One PRONOM format for the type: the type carries the PUID; by MIME type, or by an extension one type claims.
        self.assertEqual(db.get("com.example.zip").puids, ["x-fmt/263"])
        self.assertEqual(db.get("com.example.wk1").puids, ["x-fmt/114"])
        # An extension two types claim places nothing: the format is data, its version already in its name.
        data = db.get("org.nationalarchives.pronom.fmt.999")
        self.assertEqual((data.conforms, data.description), (["public.data"], "Some Data 2 File"))


class AppleUTITests(unittest.TestCase):
    def test_records_apple_utis_are_read_and_checked(self):
        from typedb.pronom import load_apple_utis
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "utis.tsv")
            with open(path, "w", encoding="utf-8") as f:
                f.write("# comment\nfmt/18\tcom.adobe.pdf\nx-fmt/263\tcom.pkware.zip-archive\n")
            self.assertEqual(load_apple_utis(path), {"fmt/18": "com.adobe.pdf", "x-fmt/263": "com.pkware.zip-archive"})
            with open(path, "w", encoding="utf-8") as f:
                f.write("fmt/18 com.adobe.pdf\n")
            with self.assertRaises(PronomError):
                load_apple_utis(path)
            self.assertEqual(load_apple_utis(os.path.join(directory, "none.tsv")), {})
