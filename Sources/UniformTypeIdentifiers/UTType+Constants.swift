extension UTType {
    // Apple's 140 `UTType` constants. Each resolves through the database, so a constant always
    // agrees with the declaration in force (where Apple's header and the real declaration
    // disagree, the TypeDB follows the declaration, as macOS does).

    /// `public.item`
    public static let item = UTType(declaredIdentifier: "public.item")

    /// `public.content`
    public static let content = UTType(declaredIdentifier: "public.content")

    /// `public.composite-content`
    public static let compositeContent = UTType(declaredIdentifier: "public.composite-content")

    /// `public.disk-image`
    public static let diskImage = UTType(declaredIdentifier: "public.disk-image")

    /// `public.data`
    public static let data = UTType(declaredIdentifier: "public.data")

    /// `public.directory`
    public static let directory = UTType(declaredIdentifier: "public.directory")

    /// `com.apple.resolvable`
    public static let resolvable = UTType(declaredIdentifier: "com.apple.resolvable")

    /// `public.symlink`
    public static let symbolicLink = UTType(declaredIdentifier: "public.symlink")

    /// `public.executable`
    public static let executable = UTType(declaredIdentifier: "public.executable")

    /// `com.apple.mount-point`
    public static let mountPoint = UTType(declaredIdentifier: "com.apple.mount-point")

    /// `com.apple.alias-file`
    public static let aliasFile = UTType(declaredIdentifier: "com.apple.alias-file")

    /// `com.apple.bookmark`
    public static let urlBookmarkData = UTType(declaredIdentifier: "com.apple.bookmark")

    /// `public.url`
    public static let url = UTType(declaredIdentifier: "public.url")

    /// `public.file-url`
    public static let fileURL = UTType(declaredIdentifier: "public.file-url")

    /// `public.text`
    public static let text = UTType(declaredIdentifier: "public.text")

    /// `public.plain-text`
    public static let plainText = UTType(declaredIdentifier: "public.plain-text")

    /// `public.utf8-plain-text`
    public static let utf8PlainText = UTType(declaredIdentifier: "public.utf8-plain-text")

    /// `public.utf16-external-plain-text`
    public static let utf16ExternalPlainText = UTType(declaredIdentifier: "public.utf16-external-plain-text")

    /// `public.utf16-plain-text`
    public static let utf16PlainText = UTType(declaredIdentifier: "public.utf16-plain-text")

    /// `public.delimited-values-text`
    public static let delimitedText = UTType(declaredIdentifier: "public.delimited-values-text")

    /// `public.comma-separated-values-text`
    public static let commaSeparatedText = UTType(declaredIdentifier: "public.comma-separated-values-text")

    /// `public.tab-separated-values-text`
    public static let tabSeparatedText = UTType(declaredIdentifier: "public.tab-separated-values-text")

    /// `public.utf8-tab-separated-values-text`
    public static let utf8TabSeparatedText = UTType(declaredIdentifier: "public.utf8-tab-separated-values-text")

    /// `public.rtf`
    public static let rtf = UTType(declaredIdentifier: "public.rtf")

    /// `public.html`
    public static let html = UTType(declaredIdentifier: "public.html")

    /// `public.xml`
    public static let xml = UTType(declaredIdentifier: "public.xml")

    /// `public.yaml`
    public static let yaml = UTType(declaredIdentifier: "public.yaml")

    /// `public.css`
    public static let css = UTType(declaredIdentifier: "public.css")

    /// `public.source-code`
    public static let sourceCode = UTType(declaredIdentifier: "public.source-code")

    /// `public.assembly-source`
    public static let assemblyLanguageSource = UTType(declaredIdentifier: "public.assembly-source")

    /// `public.c-source`
    public static let cSource = UTType(declaredIdentifier: "public.c-source")

    /// `public.objective-c-source`
    public static let objectiveCSource = UTType(declaredIdentifier: "public.objective-c-source")

    /// `public.swift-source`
    public static let swiftSource = UTType(declaredIdentifier: "public.swift-source")

    /// `public.c-plus-plus-source`
    public static let cPlusPlusSource = UTType(declaredIdentifier: "public.c-plus-plus-source")

    /// `public.objective-c-plus-plus-source`
    public static let objectiveCPlusPlusSource = UTType(declaredIdentifier: "public.objective-c-plus-plus-source")

    /// `public.c-header`
    public static let cHeader = UTType(declaredIdentifier: "public.c-header")

    /// `public.c-plus-plus-header`
    public static let cPlusPlusHeader = UTType(declaredIdentifier: "public.c-plus-plus-header")

    /// `public.script`
    public static let script = UTType(declaredIdentifier: "public.script")

    /// `com.apple.applescript.text`
    public static let appleScript = UTType(declaredIdentifier: "com.apple.applescript.text")

    /// `com.apple.applescript.script`
    public static let osaScript = UTType(declaredIdentifier: "com.apple.applescript.script")

    /// `com.apple.applescript.script-bundle`
    public static let osaScriptBundle = UTType(declaredIdentifier: "com.apple.applescript.script-bundle")

    /// `com.netscape.javascript-source`
    public static let javaScript = UTType(declaredIdentifier: "com.netscape.javascript-source")

    /// `public.shell-script`
    public static let shellScript = UTType(declaredIdentifier: "public.shell-script")

    /// `public.perl-script`
    public static let perlScript = UTType(declaredIdentifier: "public.perl-script")

    /// `public.python-script`
    public static let pythonScript = UTType(declaredIdentifier: "public.python-script")

    /// `public.ruby-script`
    public static let rubyScript = UTType(declaredIdentifier: "public.ruby-script")

    /// `public.php-script`
    public static let phpScript = UTType(declaredIdentifier: "public.php-script")

    /// `public.make-source`
    public static let makefile = UTType(declaredIdentifier: "public.make-source")

    /// `public.json`
    public static let json = UTType(declaredIdentifier: "public.json")

    /// `com.apple.property-list`
    public static let propertyList = UTType(declaredIdentifier: "com.apple.property-list")

    /// `com.apple.xml-property-list`
    public static let xmlPropertyList = UTType(declaredIdentifier: "com.apple.xml-property-list")

    /// `com.apple.binary-property-list`
    public static let binaryPropertyList = UTType(declaredIdentifier: "com.apple.binary-property-list")

    /// `com.adobe.pdf`
    public static let pdf = UTType(declaredIdentifier: "com.adobe.pdf")

    /// `com.apple.rtfd`
    public static let rtfd = UTType(declaredIdentifier: "com.apple.rtfd")

    /// `com.apple.flat-rtfd`
    public static let flatRTFD = UTType(declaredIdentifier: "com.apple.flat-rtfd")

    /// `com.apple.webarchive`
    public static let webArchive = UTType(declaredIdentifier: "com.apple.webarchive")

    /// `public.image`
    public static let image = UTType(declaredIdentifier: "public.image")

    /// `public.jpeg`
    public static let jpeg = UTType(declaredIdentifier: "public.jpeg")

    /// `public.tiff`
    public static let tiff = UTType(declaredIdentifier: "public.tiff")

    /// `com.compuserve.gif`
    public static let gif = UTType(declaredIdentifier: "com.compuserve.gif")

    /// `public.png`
    public static let png = UTType(declaredIdentifier: "public.png")

    /// `com.apple.icns`
    public static let icns = UTType(declaredIdentifier: "com.apple.icns")

    /// `com.microsoft.bmp`
    public static let bmp = UTType(declaredIdentifier: "com.microsoft.bmp")

    /// `com.microsoft.ico`
    public static let ico = UTType(declaredIdentifier: "com.microsoft.ico")

    /// `public.camera-raw-image`
    public static let rawImage = UTType(declaredIdentifier: "public.camera-raw-image")

    /// `public.svg-image`
    public static let svg = UTType(declaredIdentifier: "public.svg-image")

    /// `com.apple.live-photo`
    public static let livePhoto = UTType(declaredIdentifier: "com.apple.live-photo")

    /// `public.heif`
    public static let heif = UTType(declaredIdentifier: "public.heif")

    /// `public.heic`
    public static let heic = UTType(declaredIdentifier: "public.heic")

    /// `public.heics`
    public static let heics = UTType(declaredIdentifier: "public.heics")

    /// `org.webmproject.webp`
    public static let webP = UTType(declaredIdentifier: "org.webmproject.webp")

    /// `com.ilm.openexr-image`
    public static let exr = UTType(declaredIdentifier: "com.ilm.openexr-image")

    /// `com.adobe.raw-image`
    public static let dng = UTType(declaredIdentifier: "com.adobe.raw-image")

    /// `public.jpeg-xl`
    public static let jpegxl = UTType(declaredIdentifier: "public.jpeg-xl")

    /// `public.3d-content`
    public static let threeDContent = UTType(declaredIdentifier: "public.3d-content")

    /// `com.pixar.universal-scene-description`
    public static let usd = UTType(declaredIdentifier: "com.pixar.universal-scene-description")

    /// `com.pixar.universal-scene-description-mobile`
    public static let usdz = UTType(declaredIdentifier: "com.pixar.universal-scene-description-mobile")

    /// `com.apple.reality`
    public static let realityFile = UTType(declaredIdentifier: "com.apple.reality")

    /// `com.apple.scenekit.scene`
    public static let sceneKitScene = UTType(declaredIdentifier: "com.apple.scenekit.scene")

    /// `com.apple.arobject`
    public static let arReferenceObject = UTType(declaredIdentifier: "com.apple.arobject")

    /// `public.audiovisual-content`
    public static let audiovisualContent = UTType(declaredIdentifier: "public.audiovisual-content")

    /// `public.movie`
    public static let movie = UTType(declaredIdentifier: "public.movie")

    /// `public.video`
    public static let video = UTType(declaredIdentifier: "public.video")

    /// `public.audio`
    public static let audio = UTType(declaredIdentifier: "public.audio")

    /// `com.apple.quicktime-movie`
    public static let quickTimeMovie = UTType(declaredIdentifier: "com.apple.quicktime-movie")

    /// `public.mpeg`
    public static let mpeg = UTType(declaredIdentifier: "public.mpeg")

    /// `public.mpeg-2-video`
    public static let mpeg2Video = UTType(declaredIdentifier: "public.mpeg-2-video")

    /// `public.mpeg-2-transport-stream`
    public static let mpeg2TransportStream = UTType(declaredIdentifier: "public.mpeg-2-transport-stream")

    /// `public.mp3`
    public static let mp3 = UTType(declaredIdentifier: "public.mp3")

    /// `public.mpeg-4`
    public static let mpeg4Movie = UTType(declaredIdentifier: "public.mpeg-4")

    /// `public.mpeg-4-audio`
    public static let mpeg4Audio = UTType(declaredIdentifier: "public.mpeg-4-audio")

    /// `com.apple.protected-mpeg-4-audio`
    public static let appleProtectedMPEG4Audio = UTType(declaredIdentifier: "com.apple.protected-mpeg-4-audio")

    /// `com.apple.protected-mpeg-4-video`
    public static let appleProtectedMPEG4Video = UTType(declaredIdentifier: "com.apple.protected-mpeg-4-video")

    /// `public.avi`
    public static let avi = UTType(declaredIdentifier: "public.avi")

    /// `public.aiff-audio`
    public static let aiff = UTType(declaredIdentifier: "public.aiff-audio")

    /// `com.microsoft.waveform-audio`
    public static let wav = UTType(declaredIdentifier: "com.microsoft.waveform-audio")

    /// `public.midi-audio`
    public static let midi = UTType(declaredIdentifier: "public.midi-audio")

    /// `public.playlist`
    public static let playlist = UTType(declaredIdentifier: "public.playlist")

    /// `public.m3u-playlist`
    public static let m3uPlaylist = UTType(declaredIdentifier: "public.m3u-playlist")

    /// `public.folder`
    public static let folder = UTType(declaredIdentifier: "public.folder")

    /// `public.volume`
    public static let volume = UTType(declaredIdentifier: "public.volume")

    /// `com.apple.package`
    public static let package = UTType(declaredIdentifier: "com.apple.package")

    /// `com.apple.bundle`
    public static let bundle = UTType(declaredIdentifier: "com.apple.bundle")

    /// `com.apple.plugin`
    public static let pluginBundle = UTType(declaredIdentifier: "com.apple.plugin")

    /// `com.apple.metadata-importer`
    public static let spotlightImporter = UTType(declaredIdentifier: "com.apple.metadata-importer")

    /// `com.apple.quicklook-generator`
    public static let quickLookGenerator = UTType(declaredIdentifier: "com.apple.quicklook-generator")

    /// `com.apple.xpc-service`
    public static let xpcService = UTType(declaredIdentifier: "com.apple.xpc-service")

    /// `com.apple.framework`
    public static let framework = UTType(declaredIdentifier: "com.apple.framework")

    /// `com.apple.application`
    public static let application = UTType(declaredIdentifier: "com.apple.application")

    /// `com.apple.application-bundle`
    public static let applicationBundle = UTType(declaredIdentifier: "com.apple.application-bundle")

    /// `com.apple.application-and-system-extension`
    public static let applicationExtension = UTType(declaredIdentifier: "com.apple.application-and-system-extension")

    /// `public.unix-executable`
    public static let unixExecutable = UTType(declaredIdentifier: "public.unix-executable")

    /// `com.microsoft.windows-executable`
    public static let exe = UTType(declaredIdentifier: "com.microsoft.windows-executable")

    /// `com.apple.systempreference.prefpane`
    public static let systemPreferencesPane = UTType(declaredIdentifier: "com.apple.systempreference.prefpane")

    /// `public.archive`
    public static let archive = UTType(declaredIdentifier: "public.archive")

    /// `org.gnu.gnu-zip-archive`
    public static let gzip = UTType(declaredIdentifier: "org.gnu.gnu-zip-archive")

    /// `public.bzip2-archive`
    public static let bz2 = UTType(declaredIdentifier: "public.bzip2-archive")

    /// `public.zip-archive`
    public static let zip = UTType(declaredIdentifier: "public.zip-archive")

    /// `com.apple.archive`
    public static let appleArchive = UTType(declaredIdentifier: "com.apple.archive")

    /// `public.tar-archive`
    public static let tarArchive = UTType(declaredIdentifier: "public.tar-archive")

    /// `public.spreadsheet`
    public static let spreadsheet = UTType(declaredIdentifier: "public.spreadsheet")

    /// `public.presentation`
    public static let presentation = UTType(declaredIdentifier: "public.presentation")

    /// `public.database`
    public static let database = UTType(declaredIdentifier: "public.database")

    /// `public.message`
    public static let message = UTType(declaredIdentifier: "public.message")

    /// `public.contact`
    public static let contact = UTType(declaredIdentifier: "public.contact")

    /// `public.vcard`
    public static let vCard = UTType(declaredIdentifier: "public.vcard")

    /// `public.to-do-item`
    public static let toDoItem = UTType(declaredIdentifier: "public.to-do-item")

    /// `public.calendar-event`
    public static let calendarEvent = UTType(declaredIdentifier: "public.calendar-event")

    /// `public.email-message`
    public static let emailMessage = UTType(declaredIdentifier: "public.email-message")

    /// `com.apple.internet-location`
    public static let internetLocation = UTType(declaredIdentifier: "com.apple.internet-location")

    /// `com.microsoft.internet-shortcut`
    public static let internetShortcut = UTType(declaredIdentifier: "com.microsoft.internet-shortcut")

    /// `public.font`
    public static let font = UTType(declaredIdentifier: "public.font")

    /// `public.bookmark`
    public static let bookmark = UTType(declaredIdentifier: "public.bookmark")

    /// `com.rsa.pkcs-12`
    public static let pkcs12 = UTType(declaredIdentifier: "com.rsa.pkcs-12")

    /// `public.x509-certificate`
    public static let x509Certificate = UTType(declaredIdentifier: "public.x509-certificate")

    /// `org.idpf.epub-container`
    public static let epub = UTType(declaredIdentifier: "org.idpf.epub-container")

    /// `public.log`
    public static let log = UTType(declaredIdentifier: "public.log")

    /// `com.apple.haptics.ahap`
    public static let ahap = UTType(declaredIdentifier: "com.apple.haptics.ahap")

    /// `public.geojson`
    public static let geoJSON = UTType(declaredIdentifier: "public.geojson")

    /// `com.apple.linkpresentation.metadata`
    public static let linkPresentationMetadata = UTType(declaredIdentifier: "com.apple.linkpresentation.metadata")

}
