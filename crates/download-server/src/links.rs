//! Every address the server writes, derived from its public origin.

use download_api::{ErrorBody, ServiceUrls, encode_component};

use crate::signed_link::{LinkKind, SignedLink};

/// Where the API lives, below the public origin.
pub(crate) const API_PREFIX: &str = "/downloads/v1";
/// Where the token endpoint lives, below the public origin.
pub(crate) const TOKEN_PATH: &str = "/oauth2/token/v1";
/// Where files are served from, below the public origin (outside the API, like the
/// real service's storage addresses).
pub(crate) const FILES_PREFIX: &str = "/files";

/// Builds links from the public origin (e.g. `http://127.0.0.1:8080`).
#[derive(Debug, Clone)]
pub(crate) struct Links {
    origin: String,
    api: ServiceUrls,
}

impl Links {
    pub(crate) fn new(origin: &str) -> Links {
        let origin = origin.trim_end_matches('/').to_owned();
        let api = ServiceUrls::new(format!("{origin}{API_PREFIX}"));
        Links { origin, api }
    }

    /// The API's endpoints.
    pub(crate) fn api(&self) -> &ServiceUrls {
        &self.api
    }

    pub(crate) fn token(&self) -> String {
        format!("{}{TOKEN_PATH}", self.origin)
    }

    /// Direct address of a product's file.
    pub(crate) fn product_file(&self, product_id: &str, file_name: &str) -> String {
        format!(
            "{}{FILES_PREFIX}/products/{}/{}",
            self.origin,
            encode_component(product_id),
            encode_component(file_name)
        )
    }

    /// Direct address of a product's thumbnail.
    pub(crate) fn image_file(
        &self,
        product_id: &str,
        index: usize,
        large: bool,
        extension: &str,
    ) -> String {
        format!(
            "{}{FILES_PREFIX}/images/{}/{}",
            self.origin,
            encode_component(product_id),
            image_file_name(index, large, extension)
        )
    }

    /// The address of the data package file `link` is for, with its `signed_query`: the
    /// API's downloads address (as a version lists it), or the direct address (where
    /// that redirects).
    pub(crate) fn signed(&self, link: &SignedLink, signed_query: &str) -> String {
        let SignedLink {
            package,
            version,
            file_name,
            ..
        } = *link;
        match link.kind {
            LinkKind::Api => format!(
                "{}&{signed_query}",
                self.api.version_download(package, version, file_name),
            ),
            LinkKind::File => format!(
                "{}{FILES_PREFIX}/packages/{}/{}/{}?{signed_query}",
                self.origin,
                encode_component(package),
                encode_component(version),
                encode_component(file_name),
            ),
        }
    }

    /// Error-body links back to the open catalogue.
    pub(crate) fn catalogue_links(&self) -> ErrorBody {
        ErrorBody {
            download_catalogue_url: Some(self.api.products(false)),
            ..ErrorBody::default()
        }
    }

    /// Error-body links back to the caller's data packages.
    pub(crate) fn package_links(&self) -> ErrorBody {
        ErrorBody {
            data_packages_url: Some(self.api.data_packages()),
            ..ErrorBody::default()
        }
    }

    /// Error-body links to both starting points of the API.
    pub(crate) fn all_links(&self) -> ErrorBody {
        ErrorBody {
            data_packages_url: Some(self.api.data_packages()),
            ..self.catalogue_links()
        }
    }
}

/// The name of a thumbnail under `/files/images/{product}/`: `0.jpg` or `0-large.jpg`.
pub(crate) fn image_file_name(index: usize, large: bool, extension: &str) -> String {
    let size = if large { "-large" } else { "" };
    format!("{index}{size}.{extension}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_addresses_live_outside_the_api_and_are_encoded() {
        let links = Links::new("http://h:1/");
        assert_eq!(
            links.product_file("OpenRoads", "straße gb.zip"),
            "http://h:1/files/products/OpenRoads/stra%C3%9Fe%20gb.zip"
        );
        assert_eq!(
            links.image_file("OpenRoads", 2, true, "jpg"),
            "http://h:1/files/images/OpenRoads/2-large.jpg"
        );
        let signed = "expires=10&signature=abc_-";
        let file = SignedLink {
            kind: LinkKind::File,
            project: "Alpha",
            package: "p",
            version: "v",
            file_name: "a&b.zip",
        };
        assert_eq!(
            links.signed(&file, signed),
            "http://h:1/files/packages/p/v/a%26b.zip?expires=10&signature=abc_-"
        );
        let api = SignedLink {
            kind: LinkKind::Api,
            ..file
        };
        assert_eq!(
            links.signed(&api, signed),
            "http://h:1/downloads/v1/dataPackages/p/versions/v/downloads?fileName=a%26b.zip&expires=10&signature=abc_-"
        );
        assert_eq!(links.token(), "http://h:1/oauth2/token/v1");
    }
}
