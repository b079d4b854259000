/// uti's version: the one place it is written. `uti --version`, `uti-server --version`, `GET /version` and
/// the HTTP API's document (`openapi.json`, whose `info.version` a test holds to this) all say it.
package enum UTIVersion {
    package static let string = "0.1.0"
}
