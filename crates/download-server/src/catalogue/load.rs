//! Loading a catalogue: `catalogue.json` read and checked, every file it lists
//! measured, each address built and the answers that never change serialised once.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::Arc;

use axum::body::Bytes;
use axum::http::HeaderValue;
use download_api::{
    Area, DataPackage, DataPackageVersionSummary, Download, DownloadsQuery, Format, Product,
    ProductDownload,
};
use serde::Serialize;

use super::format::{CatalogueFile, PackageEntry, ProductEntry, ProjectEntry};
use super::source::{self, CATALOGUE_FILE, Measurer, Source, content_type, extension, file_name};
use super::{
    Catalogue, LoadedDownload, LoadedImage, LoadedProduct, Package, PackageVersion, Project,
    ProjectId,
};
use crate::Error;
use crate::cached_json::CachedJson;
use crate::file::{FileContent, ServedFile};
use crate::links::Links;
use crate::storage::ObjectStorage;

impl Catalogue {
    /// Reads, checks and measures a catalogue, and serialises its fixed bodies.
    pub(crate) fn load(source: &Source, links: &Links) -> Result<Catalogue, Error> {
        Catalogue::from_text(&source.catalogue_text()?, source, links)
    }

    /// [`Catalogue::load`] with the text of `catalogue.json` given: its files still
    /// come from `source`.
    pub(crate) fn from_text(
        text: &str,
        source: &Source,
        links: &Links,
    ) -> Result<Catalogue, Error> {
        Catalogue::build(text, &mut Measurer::new(source), links)
    }

    /// Reads a catalogue from object storage, `text` its `catalogue.json`: each object it
    /// lists is measured by a HEAD first, many at once.
    pub(crate) async fn load_from_store(
        storage: Arc<ObjectStorage>,
        text: String,
        links: Links,
    ) -> Result<Catalogue, Error> {
        // A catalogue that does not parse fails before any HEAD is sent.
        let file = blocking(move || Catalogue::parse(&text)).await?;
        let paths: BTreeSet<String> = listed_paths(&file)
            .filter(|path| source::check_relative_path(path).is_ok())
            .map(str::to_owned)
            .collect();
        let measured = storage.measure_all(paths.into_iter().collect()).await;
        let source = Source::Object { storage, measured };
        blocking(move || Catalogue::from_file(file, &mut Measurer::new(&source), &links)).await
    }

    /// Checks a catalogue directory as a server would load it (for publishing): its
    /// `catalogue.json` text and every file it lists, by path, measured.
    pub(crate) fn check_directory(
        dir: &std::path::Path,
    ) -> Result<(String, HashMap<String, Arc<FileContent>>), Error> {
        let source = Source::Directory(dir.to_owned());
        let text = source.catalogue_text()?;
        let mut measurer = Measurer::new(&source);
        Catalogue::build(&text, &mut measurer, &Links::new("http://localhost"))?;
        Ok((text, measurer.into_files()))
    }

    fn build(text: &str, measurer: &mut Measurer<'_>, links: &Links) -> Result<Catalogue, Error> {
        Catalogue::from_file(Catalogue::parse(text)?, measurer, links)
    }

    /// `catalogue.json`'s text as its file format, or where and why it is not.
    fn parse(text: &str) -> Result<CatalogueFile, Error> {
        // Serde would also read a struct from an array: only an object is a catalogue.
        if let Some(start) = text.trim_start().chars().next()
            && start != '{'
        {
            let offset = text.len() - text.trim_start().len();
            let line = text[..offset].matches('\n').count() + 1;
            let column = offset - text[..offset].rfind('\n').map_or(0, |i| i + 1) + 1;
            return Err(Error::CatalogueSyntax {
                file: CATALOGUE_FILE.to_owned(),
                line,
                column,
                message: "expected a JSON object with \"products\" and \"projects\"".into(),
            });
        }
        serde_json::from_str(text).map_err(syntax_error)
    }

    fn from_file(
        file: CatalogueFile,
        measurer: &mut Measurer<'_>,
        links: &Links,
    ) -> Result<Catalogue, Error> {
        measurer.prefetch(listed_paths(&file));

        let mut products = Vec::with_capacity(file.products.len());
        let mut product_index = HashMap::new();
        let mut summaries = Vec::new();
        let mut expanded = Vec::new();
        let mut other_areas = BTreeSet::new();
        for entry in file.products {
            if product_index
                .insert(entry.id.clone(), products.len())
                .is_some()
            {
                return Err(invalid(format!("product id '{}' appears twice", entry.id)));
            }
            let (product, loaded) = load_product(entry, links, measurer)?;
            summaries.push(ProductSummary {
                id: product.id.clone(),
                name: product.name.clone(),
                description: product.description.clone(),
                version: product.version.clone(),
                url: product.url.clone(),
            });
            expanded.push(product);
            other_areas.extend(loaded.downloads.iter().filter_map(|d| match &d.info.area {
                Area::Other(code) => Some(code.clone()),
                _ => None,
            }));
            products.push(loaded);
        }

        let mut projects = Vec::with_capacity(file.projects.len());
        let mut packages = Vec::new();
        let mut package_index = HashMap::new();
        let mut names = HashSet::new();
        let mut keys = HashSet::new();
        for (project_index, entry) in file.projects.into_iter().enumerate() {
            let ProjectEntry {
                name,
                key_sha256,
                secret_sha256,
                data_packages,
            } = entry;
            if name.is_empty() || !names.insert(name.clone()) {
                return Err(invalid(format!(
                    "project names must be present and unique: '{name}'"
                )));
            }
            let key_sha256 = parse_sha256(&key_sha256)
                .ok_or_else(|| invalid(format!("project '{name}': keySha256 {HEX_RULE}")))?;
            let secret_sha256 = parse_sha256(&secret_sha256)
                .ok_or_else(|| invalid(format!("project '{name}': secretSha256 {HEX_RULE}")))?;
            if !keys.insert(key_sha256) {
                return Err(invalid(format!(
                    "project '{name}' has the same API key as another project"
                )));
            }
            let mut listed = Vec::with_capacity(data_packages.len());
            for package in data_packages {
                if package_index
                    .insert(package.id.clone(), packages.len())
                    .is_some()
                {
                    return Err(invalid(format!(
                        "data package id '{}' appears twice",
                        package.id
                    )));
                }
                let (json, loaded) =
                    load_package(package, ProjectId(project_index), links, measurer)?;
                listed.push(json);
                packages.push(loaded);
            }
            projects.push(Project {
                name,
                key_sha256,
                secret_sha256,
                packages_json: cached(&listed),
            });
        }

        let (count, bytes) = measurer.totals();
        tracing::info!(
            products = products.len(),
            projects = projects.len(),
            data_packages = packages.len(),
            files = count,
            bytes,
            "catalogue loaded"
        );
        Ok(Catalogue {
            products,
            product_index,
            products_summary_json: cached(&summaries),
            products_expanded_json: cached(&expanded),
            projects,
            packages,
            package_index,
            other_areas,
        })
    }
}

/// Every file path a catalogue names: images, product downloads, package files.
fn listed_paths(file: &CatalogueFile) -> impl Iterator<Item = &str> {
    let images = file
        .products
        .iter()
        .flat_map(|p| &p.images)
        .flat_map(|i| [i.small.as_str(), i.large.as_str()]);
    let downloads = file
        .products
        .iter()
        .flat_map(|p| &p.downloads)
        .map(|d| d.path.as_str());
    let package_files = file
        .projects
        .iter()
        .flat_map(|p| &p.data_packages)
        .flat_map(|p| &p.versions)
        .flat_map(|v| &v.files)
        .map(String::as_str);
    images.chain(downloads).chain(package_files)
}

/// What `GET /products` lists for each product without `expanded`: the fields the
/// spec requires, as the real service answers.
#[derive(Debug, Serialize)]
struct ProductSummary {
    id: String,
    name: String,
    description: String,
    version: String,
    url: String,
}

const HEX_RULE: &str = "must be the lower-case hex SHA-256 (64 characters)";

fn load_product(
    entry: ProductEntry,
    links: &Links,
    measurer: &mut Measurer<'_>,
) -> Result<(Product, LoadedProduct), Error> {
    let id = entry.id;
    if id.is_empty()
        || !id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err(invalid(format!(
            "product id '{id}' may only use letters, digits, '_' and '-'"
        )));
    }
    let api = links.api();

    let mut images = Vec::with_capacity(entry.images.len());
    for (index, image) in entry.images.iter().enumerate() {
        let serve = |path: &str, large: bool, measurer: &mut Measurer<'_>| {
            let content = measurer.measure(path)?;
            let ext = extension(file_name(path));
            let served = ServedFile {
                content,
                file_name: format!("{id}-{}", crate::links::image_file_name(index, large, &ext)),
                content_type: content_type(path),
            };
            let location = header_value(&links.image_file(&id, index, large, &ext), path)?;
            Ok::<_, Error>((served, location))
        };
        let (small, small_location) = serve(&image.small, false, measurer)?;
        let (large, large_location) = serve(&image.large, true, measurer)?;
        images.push(LoadedImage {
            small,
            small_location,
            large,
            large_location,
        });
    }

    // Measure first: the listed url of each download depends on all of them.
    let mut files = Vec::with_capacity(entry.downloads.len());
    let mut seen_names = HashSet::new();
    for download in &entry.downloads {
        let content = measurer.measure(&download.path)?;
        let name = file_name(&download.path).to_owned();
        if !seen_names.insert(name.clone()) {
            return Err(invalid(format!(
                "product '{id}' lists the file name '{name}' twice; file names must be unique per product"
            )));
        }
        if download.area.is_empty() || download.format.is_empty() {
            return Err(invalid(format!(
                "product '{id}', {}: area and format may not be empty",
                download.path
            )));
        }
        files.push((name, content));
    }
    let attributes: Vec<(Area, &str, Option<&str>)> = entry
        .downloads
        .iter()
        .map(|d| {
            (
                Area::from(d.area.as_str()),
                d.format.as_str(),
                d.subformat.as_deref(),
            )
        })
        .collect();

    let mut downloads = Vec::with_capacity(files.len());
    for (i, (name, content)) in files.into_iter().enumerate() {
        let (area, format, subformat) = attributes[i].clone();
        let mut query = DownloadsQuery {
            area: Some(area.clone()),
            format: Some(format.to_owned()),
            subformat: subformat.map(str::to_owned),
            file_name: None,
            redirect: true,
        };
        // The real service's form selects by area and format; add the file name only
        // when that would also select another file.
        let matching = entry
            .downloads
            .iter()
            .zip(&attributes)
            .filter(|(d, (a, f, s))| query.matches(file_name(&d.path), a, f, *s))
            .count();
        if matching > 1 {
            query.file_name = Some(name.clone());
        }
        let info = ProductDownload {
            file: Download {
                url: api.downloads(&id, &query),
                file_name: name.clone(),
                size: Some(content.size),
                md5: Some(content.md5.clone()),
                flaws: Vec::new(),
            },
            area,
            format: format.to_owned(),
            subformat: subformat.map(str::to_owned),
        };
        let path = &entry.downloads[i].path;
        downloads.push(LoadedDownload {
            json: to_json(&info),
            location: header_value(&links.product_file(&id, &name), path)?,
            file: ServedFile {
                content,
                content_type: content_type(&name),
                file_name: name,
            },
            info,
        });
    }

    let areas: BTreeSet<Area> = downloads.iter().map(|d| d.info.area.clone()).collect();
    let mut formats: Vec<Format> = Vec::new();
    for d in &downloads {
        let format = Format {
            format: d.info.format.clone(),
            subformat: d.info.subformat.clone(),
        };
        if !formats.contains(&format) {
            formats.push(format);
        }
    }
    let product_url = api.product(&id);
    let product = Product {
        id: id.clone(),
        name: entry.name,
        description: entry.description,
        version: entry.version,
        documentation_url: entry.documentation_url,
        areas: Some(areas.into_iter().collect()),
        data_structures: entry.data_structures,
        category: entry.category,
        formats: Some(formats),
        image_count: Some(images.len() as u32),
        image_template: (!images.is_empty()).then(|| format!("{product_url}/images/{{index}}")),
        downloads_url: Some(api.downloads(&id, &DownloadsQuery::default())),
        warning: entry.warning,
        url: product_url,
    };
    let infos: Vec<&ProductDownload> = downloads.iter().map(|d| &d.info).collect();
    let loaded = LoadedProduct {
        json: cached(&product),
        downloads_json: cached(&infos),
        downloads,
        images,
    };
    Ok((product, loaded))
}

fn load_package(
    entry: PackageEntry,
    project: ProjectId,
    links: &Links,
    measurer: &mut Measurer<'_>,
) -> Result<(DataPackage, Package), Error> {
    let id = entry.id;
    check_id("data package id", &id)?;
    let api = links.api();
    let package_url = api.data_package(&id);
    let mut version_ids = HashSet::new();
    let mut versions = Vec::with_capacity(entry.versions.len());
    for version in entry.versions {
        check_id(&format!("data package '{id}': version id"), &version.id)?;
        if version.id == "latest" || !version_ids.insert(version.id.clone()) {
            return Err(invalid(format!(
                "data package '{id}': version ids must be unique and not 'latest': '{}'",
                version.id
            )));
        }
        let mut names = HashSet::new();
        let mut files = Vec::with_capacity(version.files.len());
        for path in &version.files {
            let content = measurer.measure(path)?;
            let name = file_name(path).to_owned();
            if !names.insert(name.clone()) {
                return Err(invalid(format!(
                    "data package '{id}' version '{}' lists the file name '{name}' twice",
                    version.id
                )));
            }
            files.push(ServedFile {
                content,
                content_type: content_type(&name),
                file_name: name,
            });
        }
        versions.push(PackageVersion {
            summary: DataPackageVersionSummary {
                url: api.version(&id, &version.id),
                id: version.id,
                created_on: version.created_on,
                reason: version.reason,
                supply_type: version.supply_type,
                product_version: version.product_version,
                product_format: version.product_format,
                format: version.format,
                data_package_url: Some(package_url.clone()),
            },
            next_version_url: None,
            previous_version_url: None,
            files,
        });
    }
    for i in 0..versions.len() {
        if i > 0 {
            versions[i].previous_version_url = Some(versions[i - 1].summary.url.clone());
        }
        if i + 1 < versions.len() {
            versions[i].next_version_url = Some(versions[i + 1].summary.url.clone());
        }
    }
    let summaries: Vec<DataPackageVersionSummary> =
        versions.iter().map(|v| v.summary.clone()).collect();
    let package = DataPackage {
        id: id.clone(),
        name: entry.name,
        url: package_url,
        created_on: entry.created_on,
        product_id: entry.product_id,
        product_name: entry.product_name,
        versions: summaries,
    };
    let loaded = Package {
        project,
        json: cached(&package),
        versions_json: cached(&package.versions),
        id,
        versions,
    };
    Ok((package, loaded))
}

/// Ids appear as path segments: they must be non-empty and free of `/` and control
/// characters.
fn check_id(what: &str, id: &str) -> Result<(), Error> {
    if id.is_empty() || id.contains('/') || id.chars().any(char::is_control) {
        return Err(invalid(format!(
            "{what} '{id}' must be non-empty, without '/' or control characters"
        )));
    }
    Ok(())
}

fn parse_sha256(hex: &str) -> Option<[u8; 32]> {
    if hex.len() != 64 || !hex.is_ascii() {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}

fn header_value(url: &str, path: &str) -> Result<HeaderValue, Error> {
    // Every part of a link is percent-encoded, so this only fails on a broken origin.
    HeaderValue::try_from(url).map_err(|_| Error::Catalogue {
        file: path.to_owned(),
        message: format!("cannot form the address {url}"),
    })
}

/// Runs `work` on tokio's blocking threads, off the ones that answer requests.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, Error> + Send + 'static,
) -> Result<T, Error> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|err| Error::Io(std::io::Error::other(err)))?
}

fn invalid(message: String) -> Error {
    Error::Catalogue {
        file: CATALOGUE_FILE.to_owned(),
        message,
    }
}

fn syntax_error(err: serde_json::Error) -> Error {
    // serde_json appends " at line L column C": the position gets its own place.
    let text = err.to_string();
    let message = match text.rsplit_once(" at line ") {
        Some((message, _)) => message.to_owned(),
        None => text,
    };
    Error::CatalogueSyntax {
        file: CATALOGUE_FILE.to_owned(),
        line: err.line(),
        column: err.column(),
        message,
    }
}

fn to_json<T: Serialize + ?Sized>(value: &T) -> Bytes {
    // Serialising these plain structs cannot fail (string keys, no maps of other keys).
    Bytes::from(serde_json::to_vec(value).unwrap_or_default())
}

fn cached<T: Serialize + ?Sized>(value: &T) -> CachedJson {
    CachedJson::new(to_json(value))
}
