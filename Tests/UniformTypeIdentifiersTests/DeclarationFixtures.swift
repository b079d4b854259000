import Foundation

/// A property list declaring types, in Apple's Info.plist schema.
func declarationPlist(exported: [String] = [], imported: [String] = []) -> String {
    func array(_ key: String, _ entries: [String]) -> String {
        entries.isEmpty ? "" : "<key>\(key)</key><array>\(entries.joined())</array>"
    }
    return """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0"><dict>\(array("UTExportedTypeDeclarations", exported))\(array("UTImportedTypeDeclarations", imported))</dict></plist>
        """
}

/// One declaration entry.
func entry(_ identifier: String?, conformsTo: [String] = ["public.data"], description: String? = nil,
           extensions: [String] = [], mimeTypes: [String] = [], extra: String = "") -> String {
    var fields = ""
    if let identifier { fields += "<key>UTTypeIdentifier</key><string>\(identifier)</string>" }
    fields += "<key>UTTypeConformsTo</key><array>" + conformsTo.map { "<string>\($0)</string>" }.joined() + "</array>"
    if let description { fields += "<key>UTTypeDescription</key><string>\(description)</string>" }
    var tags = ""
    if !extensions.isEmpty {
        tags += "<key>public.filename-extension</key><array>" + extensions.map { "<string>\($0)</string>" }.joined() + "</array>"
    }
    if !mimeTypes.isEmpty {
        tags += "<key>public.mime-type</key><array>" + mimeTypes.map { "<string>\($0)</string>" }.joined() + "</array>"
    }
    if !tags.isEmpty { fields += "<key>UTTypeTagSpecification</key><dict>\(tags)</dict>" }
    return "<dict>\(fields)\(extra)</dict>"
}
