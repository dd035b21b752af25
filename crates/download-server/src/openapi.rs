//! The service's OpenAPI 3.1 document, served at `/downloads/v1/openapi.json`.
//!
//! The schemas come from the wire types the server serialises (`download_api` with its
//! `openapi` feature), so they cannot drift from the answers. The operations are
//! declared here, one item per endpoint, beside each other so the whole API reads in one
//! place; `cargo xtask test` runs schemathesis against the live server to keep them true.

use download_api::{
    DataPackage, DataPackageVersion, DataPackageVersionSummary, Download, ErrorBody, Format,
    OAuthErrorBody, Product, ProductDownload, TokenResponse,
};
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::security::{
    ApiKey, ApiKeyValue, ClientCredentials, Flow, Http, HttpAuthScheme, OAuth2, Scopes,
    SecurityScheme,
};
use utoipa::openapi::{OpenApi as Document, Server};
use utoipa::{Modify, OpenApi};

use crate::links::TOKEN_PATH;

/// The document for a server whose public origin is `origin` (e.g. `http://127.0.0.1:8080`):
/// the server address and the token address are absolute, as clients need them, and the
/// `area` filter lists `area_codes`, the codes the server accepts (the spec's and the
/// catalogue's own).
pub(crate) fn document(origin: &str, area_codes: &[String]) -> Document {
    let mut doc = ApiDoc::openapi();
    let area_filter = doc
        .paths
        .paths
        .get_mut(DOWNLOADS_PATH)
        .and_then(|item| item.get.as_mut())
        .and_then(|operation| operation.parameters.as_mut())
        .and_then(|parameters| parameters.iter_mut().find(|p| p.name == "area"));
    if let Some(parameter) = area_filter {
        parameter.schema = Some(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .enum_values(Some(area_codes.iter().cloned()))
                .into(),
        );
    }
    let origin = origin.trim_end_matches('/');
    doc.servers = Some(vec![Server::new(origin)]);
    let components = doc.components.get_or_insert_with(Default::default);
    components.add_security_scheme(
        "OAuth2",
        SecurityScheme::OAuth2(OAuth2::with_description(
            [Flow::ClientCredentials(ClientCredentials::new(
                format!("{origin}{TOKEN_PATH}"),
                Scopes::new(),
            ))],
            "An access token from the token endpoint, sent as `Authorization: Bearer <token>`.",
        )),
    );
    doc
}

/// The product downloads endpoint, whose `area` values depend on the catalogue.
const DOWNLOADS_PATH: &str = "/downloads/v1/products/{productId}/downloads";

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Download Service",
        version = "1.0.0",
        description = "A read-only JSON API listing downloadable geographic data: open products \
            and private data packages. Files and images are reached through 307 redirects to \
            direct addresses. See docs/api.md in the repository.",
    ),
    paths(
        operations::list_products,
        operations::show_product,
        operations::product_downloads,
        operations::product_image,
        operations::list_data_packages,
        operations::show_data_package,
        operations::list_versions,
        operations::show_version,
        operations::version_download,
        operations::issue_token,
    ),
    components(schemas(
        Format,
        Product,
        Download,
        ProductDownload,
        DataPackage,
        DataPackageVersionSummary,
        DataPackageVersion,
        TokenResponse,
        ErrorBody,
        OAuthErrorBody,
        TokenRequest,
        GrantType,
        Flag,
    )),
    modifiers(&KeySchemes),
    tags(
        (name = "products", description = "Open products: no credentials needed"),
        (name = "data packages", description = "Private data packages: an API key or an access token"),
        (name = "token", description = "OAuth 2.0 client-credentials token endpoint"),
    ),
)]
struct ApiDoc;

/// The two API-key schemes (the key in the query, `?key=`, or in a `key` header) and
/// the token endpoint's Basic authentication (key as user, secret as password).
struct KeySchemes;

impl Modify for KeySchemes {
    fn modify(&self, doc: &mut Document) {
        let components = doc.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "BasicClient",
            SecurityScheme::Http(Http::new(HttpAuthScheme::Basic)),
        );
        components.add_security_scheme(
            "APIKeyQuery",
            SecurityScheme::ApiKey(ApiKey::Query(ApiKeyValue::new("key"))),
        );
        components.add_security_scheme(
            "APIKeyHeader",
            SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::new("key"))),
        );
    }
}

/// The token request's form body.
#[derive(utoipa::ToSchema)]
#[allow(dead_code)] // Describes the form; the token route reads it.
struct TokenRequest {
    grant_type: GrantType,
}

/// The one grant type the token endpoint supports.
#[derive(utoipa::ToSchema)]
#[allow(dead_code)]
#[schema(rename_all = "snake_case")]
enum GrantType {
    ClientCredentials,
}

/// A boolean query parameter as the spec reads it: the name alone (empty value) or
/// `true` sets it, `false` clears it; anything else is a 400.
struct Flag;

impl utoipa::PartialSchema for Flag {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .enum_values(Some(["", "true", "false"]))
            .into()
    }
}

impl utoipa::ToSchema for Flag {}

/// One item per operation, each with an empty body: only the `#[utoipa::path]`
/// description is used.
#[allow(dead_code)]
mod operations {
    use super::*;

    /// List open products: their summaries, or every field with `expanded`.
    #[utoipa::path(
        get, path = "/downloads/v1/products", tag = "products",
        params(("expanded" = Option<Flag>, Query,
            description = "When set (alone, or `true`), each product comes with all its fields")),
        responses(
            (status = 200, description = "The products", body = Vec<Product>),
            (status = 400, description = "A parameter that cannot be read", body = ErrorBody),
        )
    )]
    fn list_products() {}

    /// One product.
    #[utoipa::path(
        get, path = "/downloads/v1/products/{productId}", tag = "products",
        params(("productId" = String, Path, description = "The product's id")),
        responses(
            (status = 200, description = "The product", body = Product),
            (status = 404, description = "No such product", body = ErrorBody),
        )
    )]
    fn show_product() {}

    /// A product's downloads, filtered; or a redirect to the one match with `redirect`.
    #[utoipa::path(
        get, path = "/downloads/v1/products/{productId}/downloads", tag = "products",
        params(
            ("productId" = String, Path, description = "The product's id"),
            ("fileName" = Option<String>, Query, description = "Only the file of this name"),
            ("format" = Option<String>, Query, description = "Only this format"),
            ("subformat" = Option<String>, Query, description = "Only this subformat"),
            ("area" = Option<String>, Query,
                description = "Only downloads covering this area: GB, a grid square such as SU, or another code the catalogue uses"),
            ("redirect" = Option<Flag>, Query,
                description = "When set and exactly one download matches, answer 307 to it"),
        ),
        responses(
            (status = 200, description = "The matching downloads", body = Vec<ProductDownload>),
            (status = 307, description = "The one match's file, when `redirect` is set",
                headers(("Location" = String, description = "Direct address of the file")),
                body = ProductDownload),
            (status = 400, description = "A parameter that cannot be read", body = ErrorBody),
            (status = 404, description = "No such product", body = ErrorBody),
        )
    )]
    fn product_downloads() {}

    /// A redirect to one of the product's thumbnails.
    #[utoipa::path(
        get, path = "/downloads/v1/products/{productId}/images/{index}", tag = "products",
        params(
            ("productId" = String, Path, description = "The product's id"),
            ("index" = u32, Path, description = "0 to the product's imageCount - 1"),
            ("large" = Option<Flag>, Query, description = "The larger image"),
        ),
        responses(
            (status = 307, description = "The image",
                headers(("Location" = String, description = "Direct address of the JPEG image"))),
            (status = 400, description = "A parameter that cannot be read", body = ErrorBody),
            (status = 404, description = "No such product or image", body = ErrorBody),
        )
    )]
    fn product_image() {}

    /// The data packages of the caller's project.
    #[utoipa::path(
        get, path = "/downloads/v1/dataPackages", tag = "data packages",
        security(("OAuth2" = []), ("APIKeyQuery" = []), ("APIKeyHeader" = [])),
        responses(
            (status = 200, description = "The caller's data packages", body = Vec<DataPackage>),
            (status = 401, description = "No valid key or token", body = ErrorBody),
        )
    )]
    fn list_data_packages() {}

    /// One data package.
    #[utoipa::path(
        get, path = "/downloads/v1/dataPackages/{dataPackageId}", tag = "data packages",
        params(("dataPackageId" = String, Path, description = "The package's id")),
        security(("OAuth2" = []), ("APIKeyQuery" = []), ("APIKeyHeader" = [])),
        responses(
            (status = 200, description = "The data package", body = DataPackage),
            (status = 401, description = "No valid key or token", body = ErrorBody),
            (status = 404, description = "No such package for this caller", body = ErrorBody),
        )
    )]
    fn show_data_package() {}

    /// A data package's versions.
    #[utoipa::path(
        get, path = "/downloads/v1/dataPackages/{dataPackageId}/versions", tag = "data packages",
        params(("dataPackageId" = String, Path, description = "The package's id")),
        security(("OAuth2" = []), ("APIKeyQuery" = []), ("APIKeyHeader" = [])),
        responses(
            (status = 200, description = "The versions", body = Vec<DataPackageVersionSummary>),
            (status = 401, description = "No valid key or token", body = ErrorBody),
            (status = 404, description = "No such package for this caller", body = ErrorBody),
        )
    )]
    fn list_versions() {}

    /// One version with its files; `latest` selects the newest.
    #[utoipa::path(
        get, path = "/downloads/v1/dataPackages/{dataPackageId}/versions/{versionId}",
        tag = "data packages",
        params(
            ("dataPackageId" = String, Path, description = "The package's id"),
            ("versionId" = String, Path, description = "A version id, or `latest`"),
        ),
        security(("OAuth2" = []), ("APIKeyQuery" = []), ("APIKeyHeader" = [])),
        responses(
            (status = 200, description = "The version", body = DataPackageVersion),
            (status = 401, description = "No valid key or token", body = ErrorBody),
            (status = 404, description = "No such package or version", body = ErrorBody),
        )
    )]
    fn show_version() {}

    /// A redirect to one file of a version. A listed download url (signed, expiring) works
    /// without credentials. Beyond the spec: `Accept: application/json` answers 200 with the
    /// Download, its `url` the direct address, for browsers that cannot read a redirect.
    #[utoipa::path(
        get, path = "/downloads/v1/dataPackages/{dataPackageId}/versions/{versionId}/downloads",
        tag = "data packages",
        params(
            ("dataPackageId" = String, Path, description = "The package's id"),
            ("versionId" = String, Path, description = "The version's id"),
            ("fileName" = String, Query, min_length = 1, description = "The file's name"),
        ),
        security(("OAuth2" = []), ("APIKeyQuery" = []), ("APIKeyHeader" = [])),
        responses(
            (status = 307, description = "The file",
                headers(("Location" = String, description = "Direct, signed, expiring address of the file"))),
            (status = 200, description = "With `Accept: application/json`: the file's direct address",
                body = Download),
            (status = 400, description = "A parameter that cannot be read", body = ErrorBody),
            (status = 401, description = "No valid key, token or signature", body = ErrorBody),
            (status = 404, description = "No such package, version or file", body = ErrorBody),
        )
    )]
    fn version_download() {}

    /// An access token for the project whose key and secret are sent with Basic authentication.
    #[utoipa::path(
        post, path = "/oauth2/token/v1", tag = "token",
        request_body(content = TokenRequest, content_type = "application/x-www-form-urlencoded"),
        responses(
            (status = 200, description = "A token", body = TokenResponse),
            (status = 400, description = "A form that is not a client-credentials request",
                body = OAuthErrorBody),
            (status = 401, description = "Wrong or missing key and secret", body = OAuthErrorBody,
                headers(("WWW-Authenticate" = String, description = "The Basic scheme to use"))),
            (status = 413, description = "A form body over 8 KiB", body = OAuthErrorBody),
        ),
        security(("BasicClient" = []))
    )]
    fn issue_token() {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::links::API_PREFIX;

    #[test]
    fn paths_are_where_the_server_routes_them() {
        let doc = document("http://example.org/", &[]);
        for path in doc.paths.paths.keys() {
            assert!(
                path.starts_with(API_PREFIX) || path == TOKEN_PATH,
                "{path} is outside the API"
            );
        }
        assert_eq!(doc.paths.paths.len(), 10);
    }

    #[test]
    fn the_area_filter_lists_the_codes_the_server_accepts() {
        let codes = vec!["GB".to_owned(), "SU".to_owned(), "UK".to_owned()];
        let json = serde_json::to_value(document("http://example.org", &codes)).unwrap();
        let parameters = json["paths"][DOWNLOADS_PATH]["get"]["parameters"]
            .as_array()
            .unwrap();
        let area = parameters.iter().find(|p| p["name"] == "area").unwrap();
        assert_eq!(
            area["schema"]["enum"],
            serde_json::json!(["GB", "SU", "UK"])
        );
    }

    #[test]
    fn declares_the_three_schemes_with_an_absolute_token_url() {
        let json = serde_json::to_value(document("http://example.org", &[])).unwrap();
        let schemes = &json["components"]["securitySchemes"];
        assert_eq!(
            schemes["OAuth2"]["flows"]["clientCredentials"]["tokenUrl"],
            "http://example.org/oauth2/token/v1"
        );
        assert_eq!(schemes["APIKeyQuery"]["in"], "query");
        assert_eq!(schemes["APIKeyHeader"]["in"], "header");
        assert_eq!(json["openapi"], "3.1.0");
    }

    #[test]
    fn the_token_operation_lists_its_answers() {
        let json = serde_json::to_value(document("http://example.org", &[])).unwrap();
        let responses = json["paths"][TOKEN_PATH]["post"]["responses"]
            .as_object()
            .unwrap();
        let codes: Vec<&str> = responses.keys().map(String::as_str).collect();
        assert_eq!(codes, ["200", "400", "401", "413"]);
    }
}
