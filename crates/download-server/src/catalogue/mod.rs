//! The catalogue in memory: every product and data package with its files measured,
//! and beside them a cache of the answers that never change (their JSON as
//! [`CachedJson`], a download's JSON and `Location`), all built once when the server
//! starts ([`load`]), and the lookups the routes make in it.

mod format;
mod load;
mod source;

use std::collections::{BTreeSet, HashMap};

use axum::body::Bytes;
use axum::http::HeaderValue;
use download_api::{Area, DataPackageVersionSummary, ProductDownload};

use crate::cached_json::CachedJson;
use crate::file::ServedFile;
pub(crate) use source::{CATALOGUE_FILE, Source, content_type};

/// Everything the server publishes.
#[derive(Debug)]
pub(crate) struct Catalogue {
    products: Vec<LoadedProduct>,
    product_index: HashMap<String, usize>,
    /// `GET /products`.
    pub products_summary_json: CachedJson,
    /// `GET /products?expanded`.
    pub products_expanded_json: CachedJson,
    projects: Vec<Project>,
    packages: Vec<Package>,
    package_index: HashMap<String, usize>,
    /// Area codes outside the spec's list that some download covers (`UK`, `NI`).
    other_areas: BTreeSet<String>,
}

#[derive(Debug)]
pub(crate) struct LoadedProduct {
    /// `GET /products/{id}`.
    pub json: CachedJson,
    /// `GET /products/{id}/downloads` with no filter.
    pub downloads_json: CachedJson,
    pub downloads: Vec<LoadedDownload>,
    pub images: Vec<LoadedImage>,
}

#[derive(Debug)]
pub(crate) struct LoadedDownload {
    pub info: ProductDownload,
    /// This download alone, as JSON (the body of the 307).
    pub json: Bytes,
    /// The direct file address, for `Location`.
    pub location: HeaderValue,
    pub file: ServedFile,
}

#[derive(Debug)]
pub(crate) struct LoadedImage {
    pub small: ServedFile,
    pub small_location: HeaderValue,
    pub large: ServedFile,
    pub large_location: HeaderValue,
}

/// Names one project of the catalogue that made it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct ProjectId(usize);

/// A project: who may see which data packages.
#[derive(Debug)]
pub(crate) struct Project {
    pub name: String,
    pub key_sha256: [u8; 32],
    pub secret_sha256: [u8; 32],
    /// `GET /dataPackages` for this project.
    pub packages_json: CachedJson,
}

#[derive(Debug)]
pub(crate) struct Package {
    /// The owning project.
    pub project: ProjectId,
    pub id: String,
    /// `GET /dataPackages/{id}`.
    pub json: CachedJson,
    /// `GET /dataPackages/{id}/versions`.
    pub versions_json: CachedJson,
    /// Oldest first.
    pub versions: Vec<PackageVersion>,
}

#[derive(Debug)]
pub(crate) struct PackageVersion {
    pub summary: DataPackageVersionSummary,
    pub next_version_url: Option<String>,
    pub previous_version_url: Option<String>,
    pub files: Vec<ServedFile>,
}

impl Package {
    /// A version by id, or the newest for `latest`.
    pub(crate) fn version(&self, version_id: &str) -> Option<&PackageVersion> {
        if version_id == "latest" {
            self.versions.last()
        } else {
            self.versions.iter().find(|v| v.summary.id == version_id)
        }
    }
}

impl PackageVersion {
    pub(crate) fn file(&self, file_name: &str) -> Option<&ServedFile> {
        self.files.iter().find(|f| f.file_name == file_name)
    }
}

impl Catalogue {
    pub(crate) fn product(&self, id: &str) -> Option<&LoadedProduct> {
        self.product_index.get(id).map(|&i| &self.products[i])
    }

    /// A project of this catalogue.
    pub(crate) fn project(&self, id: ProjectId) -> &Project {
        &self.projects[id.0]
    }

    /// Every project, with its id.
    pub(crate) fn projects(&self) -> impl Iterator<Item = (ProjectId, &Project)> {
        self.projects
            .iter()
            .enumerate()
            .map(|(i, project)| (ProjectId(i), project))
    }

    pub(crate) fn project_named(&self, name: &str) -> Option<ProjectId> {
        self.projects()
            .find(|(_, p)| p.name == name)
            .map(|(id, _)| id)
    }

    /// Whether `area` is one of the spec's areas or one a download of this catalogue
    /// covers: the areas a downloads filter may name.
    pub(crate) fn knows_area(&self, area: &Area) -> bool {
        match area {
            Area::Other(code) => self.other_areas.contains(code),
            _ => true,
        }
    }

    /// The codes [`Catalogue::knows_area`] accepts, the spec's first.
    pub(crate) fn area_codes(&self) -> Vec<String> {
        Area::all()
            .map(|area| area.code().to_owned())
            .chain(self.other_areas.iter().cloned())
            .collect()
    }

    /// Any project's package (for checking signed links, which name their project).
    pub(crate) fn package(&self, id: &str) -> Option<&Package> {
        self.package_index.get(id).map(|&i| &self.packages[i])
    }
}

#[cfg(test)]
mod tests;
