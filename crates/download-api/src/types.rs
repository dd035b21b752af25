//! The spec's resources, with the spec's field names.
//!
//! Parsing is tolerant of real data: unknown fields are ignored, optional fields may
//! be missing, and free-form values (versions, reasons) are kept as text.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::Area;
use crate::listed::{Field, Flaw, ReadFile, Sent, SentFile, text_or_flaw};

/// A file format in which a product is offered.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Format {
    /// File format of the download, e.g. `"ESRI® Shapefile"`.
    pub format: String,
    /// Style, when a product comes in more than one (`"3"` for GML 3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subformat: Option<String>,
}

/// An open product of the catalogue. Its `Default` has every optional field absent.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Product {
    pub id: String,
    pub name: String,
    pub description: String,
    /// Published as `YYYY-MM`; partner products send free text such as `"Version 5"`.
    pub version: String,
    pub url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub documentation_url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub areas: Option<Vec<Area>>,
    /// Each item `Raster` or `Vector`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_structures: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub formats: Option<Vec<Format>>,
    /// Number of thumbnails; valid indexes are `0..image_count`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_count: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_template: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub downloads_url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
}

impl Product {
    /// The areas offered, empty when the product lists none.
    pub fn areas(&self) -> &[Area] {
        self.areas.as_deref().unwrap_or_default()
    }

    /// The formats offered, empty when the product lists none.
    pub fn formats(&self) -> &[Format] {
        self.formats.as_deref().unwrap_or_default()
    }

    /// The data structures (`Raster`, `Vector`), empty when the product lists none.
    pub fn data_structures(&self) -> &[String] {
        self.data_structures.as_deref().unwrap_or_default()
    }

    /// The version as `(year, month)` when it follows the published `YYYY-MM` pattern.
    pub fn year_month(&self) -> Option<(u16, u8)> {
        let (year, month) = self.version.split_once('-')?;
        let valid = year.len() == 4 && month.len() == 2;
        let (year, month) = (year.parse().ok()?, month.parse().ok()?);
        (valid && (1..=12).contains(&month)).then_some((year, month))
    }
}

/// A downloadable file. Requesting `url` redirects to the data.
///
/// Each field is read on its own (see [`crate::listed`]): a field the app cannot use
/// is left empty (`url`, `file_name`) or unknown (`size`, `md5`) and noted in `flaws`,
/// so one bad field never hides the listing's other files.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", from = "SentFile")]
pub struct Download {
    /// An `http:` or `https:` address; empty when the service sent none usable.
    pub url: String,
    pub file_name: String,
    /// Size in bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// MD5 of the file data, lower-case hex.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub md5: Option<String>,
    /// The fields the service sent that the app set aside; never written.
    #[serde(skip)]
    pub flaws: Vec<Flaw>,
}

impl Download {
    /// Whether it can be fetched: it has a usable address.
    pub fn is_offered(&self) -> bool {
        !self.url.is_empty()
    }
}

impl From<SentFile> for Download {
    fn from(sent: SentFile) -> Self {
        let file = ReadFile::from(sent);
        Download {
            url: file.url,
            file_name: file.file_name,
            size: file.size,
            md5: file.md5,
            flaws: file.flaws,
        }
    }
}

/// A downloadable file of an open product: a [`Download`] (read the same way) with the
/// area and format it is listed under.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", from = "SentProductDownload")]
pub struct ProductDownload {
    #[serde(flatten)]
    pub file: Download,
    pub area: Area,
    pub format: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subformat: Option<String>,
}

#[derive(Deserialize)]
struct SentProductDownload {
    #[serde(flatten)]
    file: SentFile,
    #[serde(default)]
    area: Option<Sent>,
    #[serde(default)]
    format: Option<Sent>,
    #[serde(default)]
    subformat: Option<Sent>,
}

impl From<SentProductDownload> for ProductDownload {
    fn from(sent: SentProductDownload) -> Self {
        let mut file = Download::from(sent.file);
        // An area or format that is no string is an empty one: the file is listed
        // under none, and the rest of the listing stays readable.
        let area = text_or_flaw(sent.area, Field::Area, &mut file.flaws);
        let format = text_or_flaw(sent.format, Field::Format, &mut file.flaws);
        let subformat = match sent.subformat {
            Some(Sent::Text(subformat)) => Some(subformat),
            _ => None,
        };
        ProductDownload {
            file,
            area: Area::from(area.as_str()),
            format,
            subformat,
        }
    }
}

/// A private set of products of a project.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct DataPackage {
    pub id: String,
    pub name: String,
    pub url: String,
    /// `YYYY-MM-DD`.
    pub created_on: String,
    pub product_id: String,
    pub product_name: String,
    #[serde(default)]
    pub versions: Vec<DataPackageVersionSummary>,
}

/// One version of a data package, as listed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct DataPackageVersionSummary {
    pub id: String,
    pub url: String,
    pub created_on: String,
    /// `INITIAL`, `UPDATE`, `EXPANSION`, `RESUPPLY` or `ONLINE_ORDER`.
    pub reason: String,
    /// `FULL` or `COU` (change only update).
    pub supply_type: String,
    /// Free-text label, e.g. `"E37 December 2015 Update"`.
    pub product_version: String,
    pub product_format: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_package_url: Option<String>,
}

/// One version of a data package with its files.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct DataPackageVersion {
    #[serde(flatten)]
    pub summary: DataPackageVersionSummary,
    #[serde(default)]
    pub downloads: Vec<Download>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_version_url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous_version_url: Option<String>,
}

/// The token endpoint's answer.
///
/// `expires_in` and `issued_at` are documented as strings but real services also send
/// numbers; both are read, and written back as strings as the spec documents.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TokenResponse {
    pub access_token: String,
    /// Seconds until the token expires.
    #[serde(with = "string_or_number")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, example = "299"))]
    pub expires_in: u64,
    /// Milliseconds since the Unix epoch.
    #[serde(with = "string_or_number")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, example = "1700000000000"))]
    pub issued_at: u64,
    /// `Bearer`.
    pub token_type: String,
}

/// The body of a 401 or 404 (and of this server's 400) answer.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ErrorBody {
    /// Human-readable explanation.
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_packages_url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub download_catalogue_url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub product_url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub product_downloads_url: Option<String>,
}

impl ErrorBody {
    /// A body with only a message.
    pub fn new(message: impl Into<String>) -> Self {
        ErrorBody {
            message: message.into(),
            ..ErrorBody::default()
        }
    }

    /// The links the body carries, with a label for each, in a stable order.
    pub fn links(&self) -> impl Iterator<Item = (&'static str, &str)> {
        [
            ("Product", &self.product_url),
            ("Product downloads", &self.product_downloads_url),
            ("Download catalogue", &self.download_catalogue_url),
            ("Data packages", &self.data_packages_url),
        ]
        .into_iter()
        .filter_map(|(label, url)| url.as_deref().map(|url| (label, url)))
    }
}

/// The token endpoint's error body, in the OAuth 2.0 form (RFC 6749 §5.2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OAuthErrorBody {
    /// `invalid_client`, `invalid_request`, `unsupported_grant_type`, …
    pub error: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_description: Option<String>,
}

mod string_or_number {
    use super::*;
    use crate::listed::Sent;

    pub fn serialize<S: Serializer>(value: &u64, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(value)
    }

    /// Read as [`Sent`], not as an untagged enum: serde's buffering for that would be
    /// the only use of it in the gallery's first load (the session's token is read there).
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u64, D::Error> {
        use serde::de::Error;
        match Sent::deserialize(deserializer)? {
            Sent::Whole(n) => Ok(n),
            Sent::Fraction(f) if f >= 0.0 && f.fract() == 0.0 => Ok(f as u64),
            // No `{f}` in the message: float formatting is large in the web app's wasm.
            Sent::Fraction(_) => Err(D::Error::custom("expected a whole number, not a fraction")),
            Sent::Text(s) => s
                .trim()
                .parse()
                .map_err(|_| D::Error::custom(format!("'{s}' is not a whole number"))),
            Sent::Negative(_) | Sent::Other => {
                Err(D::Error::custom("expected a whole number of at least 0"))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn real_product_with_extra_fields_and_partner_quirks_parses() {
        let json = r#"{
            "id": "PartnerThing", "name": "Partner", "description": "d",
            "version": "Version 5", "url": "https://x/products/PartnerThing",
            "areas": ["GB", "NI"], "categories": ["a"], "supportingInfo": {"x": 1},
            "formats": [{"format": "ESRI® Shapefile"}, {"format": "GML", "subformat": "3"}]
        }"#;
        let product: Product = serde_json::from_str(json).unwrap();
        assert_eq!(product.areas(), &[Area::Gb, Area::Other("NI".into())]);
        assert_eq!(product.image_count, None);
        assert_eq!(product.year_month(), None);
        assert_eq!(product.formats()[1].subformat.as_deref(), Some("3"));
    }

    #[test]
    fn summary_product_omits_absent_fields() {
        let product = Product {
            id: "A".into(),
            name: "A".into(),
            description: "d".into(),
            version: "2024-07".into(),
            url: "u".into(),
            ..Product::default()
        };
        assert_eq!(product.year_month(), Some((2024, 7)));
        assert_eq!(
            serde_json::to_string(&product).unwrap(),
            r#"{"id":"A","name":"A","description":"d","version":"2024-07","url":"u"}"#
        );
    }

    #[test]
    fn token_response_reads_strings_or_numbers_and_writes_strings() {
        let from_strings: TokenResponse = serde_json::from_str(
            r#"{"access_token":"t","expires_in":"299","issued_at":"1700000000000","token_type":"Bearer"}"#,
        )
        .unwrap();
        let from_numbers: TokenResponse = serde_json::from_str(
            r#"{"access_token":"t","expires_in":299,"issued_at":1700000000000,"token_type":"Bearer"}"#,
        )
        .unwrap();
        assert_eq!(from_strings, from_numbers);
        assert_eq!(from_strings.expires_in, 299);
        let written = serde_json::to_value(&from_numbers).unwrap();
        assert_eq!(written["expires_in"], "299");
        assert_eq!(written["issued_at"], "1700000000000");
    }

    #[test]
    fn token_response_rejects_non_numbers() {
        let bad =
            r#"{"access_token":"t","expires_in":"soon","issued_at":"1","token_type":"Bearer"}"#;
        assert!(serde_json::from_str::<TokenResponse>(bad).is_err());
        for expires_in in ["-1", "null", "1.5", "[]"] {
            let bad = format!(
                r#"{{"access_token":"t","expires_in":{expires_in},"issued_at":"1","token_type":"Bearer"}}"#
            );
            assert!(
                serde_json::from_str::<TokenResponse>(&bad).is_err(),
                "{expires_in}"
            );
        }
    }

    #[test]
    fn version_flattens_its_summary_fields() {
        let json = r#"{"id":"110012","url":"u","createdOn":"2021-01-20","reason":"INITIAL",
            "supplyType":"FULL","productVersion":"E37 December 2015 Update","productFormat":"CSV",
            "format":"CSV","downloads":[{"url":"https://x/d","fileName":"a.zip","size":3,
                "md5":"0123456789abcdef0123456789abcdef"}],
            "nextVersionUrl":"n"}"#;
        let version: DataPackageVersion = serde_json::from_str(json).unwrap();
        assert_eq!(version.summary.id, "110012");
        assert_eq!(version.downloads[0].size, Some(3));
        assert_eq!(version.previous_version_url, None);
        let back: DataPackageVersion =
            serde_json::from_str(&serde_json::to_string(&version).unwrap()).unwrap();
        assert_eq!(back, version);
    }

    #[test]
    fn one_unusable_field_leaves_the_rest_of_a_listing_readable() {
        let json = r#"[
            {"url":"https://x/a","fileName":"a.zip","size":3,"area":"SU","format":"GML"},
            {"url":"https://x/b","fileName":"b.zip","size":-5,"area":"SV","format":"GML"},
            {"url":"javascript:alert(1)","fileName":"c.zip","area":"SW","format":"GML"}
        ]"#;
        let listing: Vec<ProductDownload> = serde_json::from_str(json).unwrap();
        assert_eq!(listing.len(), 3);
        assert!(listing[0].file.flaws.is_empty() && listing[0].file.is_offered());
        assert_eq!(
            (listing[1].file.size, listing[1].file.flaws.len()),
            (None, 1)
        );
        assert!(listing[1].file.is_offered());
        assert!(!listing[2].file.is_offered());
        assert_eq!(listing[2].file.flaws[0].field, crate::Field::Url);
        // What was set aside is never written back.
        let written = serde_json::to_value(&listing[1]).unwrap();
        assert!(written.get("flaws").is_none() && written.get("size").is_none());
    }

    #[test]
    fn an_area_or_format_that_is_no_string_is_set_aside() {
        let json = r#"[
            {"url":"https://x/a","fileName":"a.zip","area":5,"format":["GML"],"subformat":7},
            {"url":"https://x/b","fileName":"b.zip","format":"GML"}
        ]"#;
        let listing: Vec<ProductDownload> = serde_json::from_str(json).unwrap();
        let fields =
            |i: usize| -> Vec<Field> { listing[i].file.flaws.iter().map(|f| f.field).collect() };
        assert_eq!(fields(0), [Field::Area, Field::Format]);
        assert_eq!(listing[0].file.flaws[0].sent.as_deref(), Some("5"));
        assert_eq!(
            (listing[0].area.code(), listing[0].format.as_str()),
            ("", "")
        );
        assert_eq!(listing[0].subformat, None);
        assert!(listing[0].file.is_offered(), "the file is still offered");
        assert_eq!(fields(1), [Field::Area], "a missing area is noted too");
        assert_eq!(listing[1].format, "GML");
    }

    #[test]
    fn error_body_lists_only_present_links() {
        let body: ErrorBody = serde_json::from_str(
            r#"{"message":"No product","downloadCatalogueUrl":"c","productUrl":"p"}"#,
        )
        .unwrap();
        let links: Vec<_> = body.links().collect();
        assert_eq!(links, [("Product", "p"), ("Download catalogue", "c")]);
    }
}
