import Hummingbird
import HTTPTypes
import Prometheus

/// What an operator and a person at a browser ask of the server itself: `/healthz`, `/version`, `/metrics`,
/// `/openapi.json`, and the page at `/` with its two assets.
struct OperationsController<Context: RequestContext>: Sendable {
    let version: String
    let metrics: ServiceMetrics

    func addRoutes(to routes: some RouterMethods<Context>) {
        routes.get("healthz") { _, _ in "ok\n" }
        let version = "uti \(self.version)\n"
        routes.get("version") { _, _ in version }
        let registry = metrics.registry
        routes.get("metrics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                     body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
        }
        let document = ByteBuffer(bytes: UTIService.openAPIDocument)
        routes.get("openapi.json") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: document))
        }
        // The page: three files compiled in, served as they are. It fetches nothing but this server's JSON API,
        // and the policy says so to the browser.
        for (path, asset) in Page.assets {
            let body = ByteBuffer(bytes: asset.bytes)
            let headers = Page.headers(contentType: asset.contentType)
            routes.get(RouterPath(path)) { _, _ in Response(status: .ok, headers: headers, body: .init(byteBuffer: body)) }
        }
    }
}

/// The page at `/` (`Sources/UTIService/Page`): identify files dropped on it, browse the types.
enum Page {
    static let assets: [(path: String, asset: (bytes: [UInt8], contentType: String))] = [
        ("/", (PackageResources.index_html, "text/html; charset=utf-8")),
        ("/page/uti.js", (PackageResources.uti_js, "text/javascript; charset=utf-8")),
        ("/page/uti.css", (PackageResources.uti_css, "text/css; charset=utf-8")),
    ]

    /// Nothing from elsewhere, no framing by other sites, no guessing of types.
    static func headers(contentType: String) -> HTTPFields {
        var headers = HTTPFields()
        headers[.contentType] = contentType
        headers[.contentSecurityPolicy] = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        headers[.xContentTypeOptions] = "nosniff"
        if let referrerPolicy = HTTPField.Name("Referrer-Policy") { headers[referrerPolicy] = "no-referrer" }
        headers[.cacheControl] = "no-cache"
        return headers
    }
}
