//! `catalogue.json` as written on disk (see docs/catalogue.md). Unknown fields are
//! refused so a misspelt field is reported, not silently ignored.

use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CatalogueFile {
    #[serde(default)]
    pub products: Vec<ProductEntry>,
    #[serde(default)]
    pub projects: Vec<ProjectEntry>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct ProductEntry {
    pub id: String,
    pub name: String,
    pub description: String,
    pub version: String,
    pub category: Option<String>,
    pub documentation_url: Option<String>,
    pub data_structures: Option<Vec<String>>,
    pub warning: Option<String>,
    #[serde(default)]
    pub images: Vec<ImageEntry>,
    #[serde(default)]
    pub downloads: Vec<DownloadEntry>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ImageEntry {
    pub small: String,
    pub large: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct DownloadEntry {
    pub area: String,
    pub format: String,
    pub subformat: Option<String>,
    pub path: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct ProjectEntry {
    pub name: String,
    pub key_sha256: String,
    pub secret_sha256: String,
    #[serde(default)]
    pub data_packages: Vec<PackageEntry>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct PackageEntry {
    pub id: String,
    pub name: String,
    pub created_on: String,
    pub product_id: String,
    pub product_name: String,
    #[serde(default)]
    pub versions: Vec<VersionEntry>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct VersionEntry {
    pub id: String,
    pub created_on: String,
    pub reason: String,
    pub supply_type: String,
    pub product_version: String,
    pub product_format: String,
    pub format: Option<String>,
    #[serde(default)]
    pub files: Vec<String>,
}
