use crate::{DownloadsQuery, encode_component};

/// Addresses of the service's endpoints, built from its base address
/// (the one ending in `/v1`), with every segment and value encoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServiceUrls {
    base: String,
}

impl ServiceUrls {
    /// `base` is the service's base address, e.g. `http://127.0.0.1:8080/downloads/v1`.
    pub fn new(base: impl Into<String>) -> Self {
        let mut base = base.into();
        while base.ends_with('/') {
            base.pop();
        }
        ServiceUrls { base }
    }

    /// `GET /products`, with `?expanded` for full details.
    pub fn products(&self, expanded: bool) -> String {
        let query = if expanded { "?expanded" } else { "" };
        format!("{}/products{query}", self.base)
    }

    /// `GET /products/{id}`.
    pub fn product(&self, product_id: &str) -> String {
        format!("{}/products/{}", self.base, encode_component(product_id))
    }

    /// `GET /products/{id}/downloads` with the query's filters.
    pub fn downloads(&self, product_id: &str, query: &DownloadsQuery) -> String {
        let query = query.to_query_string();
        let separator = if query.is_empty() { "" } else { "?" };
        format!("{}/downloads{separator}{query}", self.product(product_id))
    }

    /// `GET /products/{id}/images/{index}`, with `?large` for the bigger image.
    pub fn image(&self, product_id: &str, index: u32, large: bool) -> String {
        let query = if large { "?large" } else { "" };
        format!("{}/images/{index}{query}", self.product(product_id))
    }

    /// `GET /dataPackages`.
    pub fn data_packages(&self) -> String {
        format!("{}/dataPackages", self.base)
    }

    /// `GET /dataPackages/{id}`.
    pub fn data_package(&self, package_id: &str) -> String {
        format!("{}/{}", self.data_packages(), encode_component(package_id))
    }

    /// `GET /dataPackages/{id}/versions`.
    pub fn versions(&self, package_id: &str) -> String {
        format!("{}/versions", self.data_package(package_id))
    }

    /// `GET /dataPackages/{id}/versions/{version}` (`version` may be `latest`).
    pub fn version(&self, package_id: &str, version_id: &str) -> String {
        format!(
            "{}/{}",
            self.versions(package_id),
            encode_component(version_id)
        )
    }

    /// `GET /dataPackages/{id}/versions/{version}/downloads?fileName=…`.
    pub fn version_download(&self, package_id: &str, version_id: &str, file_name: &str) -> String {
        format!(
            "{}/downloads?fileName={}",
            self.version(package_id, version_id),
            encode_component(file_name)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Area;

    fn urls() -> ServiceUrls {
        ServiceUrls::new("http://127.0.0.1:8080/downloads/v1/")
    }

    #[test]
    fn endpoints_hang_off_the_base_address() {
        let urls = urls();
        assert_eq!(
            urls.products(true),
            "http://127.0.0.1:8080/downloads/v1/products?expanded"
        );
        assert_eq!(
            urls.image("OpenRoads", 1, true),
            "http://127.0.0.1:8080/downloads/v1/products/OpenRoads/images/1?large"
        );
        assert_eq!(
            urls.version("0040046952", "latest"),
            "http://127.0.0.1:8080/downloads/v1/dataPackages/0040046952/versions/latest"
        );
    }

    #[test]
    fn segments_and_values_are_percent_encoded() {
        let urls = urls();
        assert_eq!(
            urls.product("a/b c"),
            "http://127.0.0.1:8080/downloads/v1/products/a%2Fb%20c"
        );
        assert_eq!(
            urls.version_download("p", "1", "my file&.zip"),
            "http://127.0.0.1:8080/downloads/v1/dataPackages/p/versions/1/downloads?fileName=my%20file%26.zip"
        );
        let query = DownloadsQuery {
            area: Some(Area::from("SU")),
            format: Some("ESRI® Shapefile".into()),
            ..DownloadsQuery::default()
        };
        assert_eq!(
            urls.downloads("OpenMapLocal", &query),
            "http://127.0.0.1:8080/downloads/v1/products/OpenMapLocal/downloads?area=SU&format=ESRI%C2%AE%20Shapefile"
        );
    }
}
