use crate::{Area, ParseError, QueryParams, encode_component};

/// The filters of `GET /products/{id}/downloads`, all optional.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DownloadsQuery {
    /// Keep only downloads with this file name.
    pub file_name: Option<String>,
    /// Keep only this format.
    pub format: Option<String>,
    /// Keep only this subformat.
    pub subformat: Option<String>,
    /// Keep only downloads covering this area.
    pub area: Option<Area>,
    /// Redirect to the file when exactly one download matches.
    pub redirect: bool,
}

impl DownloadsQuery {
    /// The query string (without `?`), in the order the real service writes it:
    /// `area=SS&format=GML&subformat=3&redirect`.
    pub fn to_query_string(&self) -> String {
        let filters = [
            ("area", self.area.as_ref().map(Area::code)),
            ("format", self.format.as_deref()),
            ("subformat", self.subformat.as_deref()),
            ("fileName", self.file_name.as_deref()),
        ];
        let mut parts: Vec<String> = filters
            .into_iter()
            .filter_map(|(name, value)| Some(format!("{name}={}", encode_component(value?))))
            .collect();
        if self.redirect {
            parts.push("redirect".to_owned());
        }
        parts.join("&")
    }

    /// Reads a raw query string (without `?`), each filter from its last occurrence.
    /// Unknown parameters are ignored; a bad `redirect` value or broken encoding is an
    /// error.
    pub fn parse(query: &str) -> Result<Self, ParseError> {
        let params = QueryParams::parse(query)?;
        let text = |name: &str| params.get(name).map(str::to_owned);
        Ok(DownloadsQuery {
            file_name: text("fileName"),
            format: text("format"),
            subformat: text("subformat"),
            area: params.get("area").map(Area::from),
            redirect: params.flag("redirect")?,
        })
    }

    /// Whether a download with these attributes passes every filter set.
    pub fn matches(
        &self,
        file_name: &str,
        area: &Area,
        format: &str,
        subformat: Option<&str>,
    ) -> bool {
        fn passes(filter: Option<&str>, value: Option<&str>) -> bool {
            filter.is_none() || filter == value
        }
        passes(self.file_name.as_deref(), Some(file_name))
            && self.area.as_ref().is_none_or(|wanted| wanted == area)
            && passes(self.format.as_deref(), Some(format))
            && passes(self.subformat.as_deref(), subformat)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn full() -> DownloadsQuery {
        DownloadsQuery {
            file_name: Some("opgrsp gml3 & ss.zip".into()),
            format: Some("ESRI® Shapefile".into()),
            subformat: Some("(MBTiles)".into()),
            area: Some(Area::from("SS")),
            redirect: true,
        }
    }

    #[test]
    fn writes_the_real_service_order_with_encoding() {
        assert_eq!(
            full().to_query_string(),
            "area=SS&format=ESRI%C2%AE%20Shapefile&subformat=%28MBTiles%29&fileName=opgrsp%20gml3%20%26%20ss.zip&redirect"
        );
        assert_eq!(DownloadsQuery::default().to_query_string(), "");
    }

    #[test]
    fn round_trips_through_its_query_string() {
        for query in [
            full(),
            DownloadsQuery::default(),
            DownloadsQuery {
                area: Some(Area::from("UK")),
                ..DownloadsQuery::default()
            },
        ] {
            assert_eq!(DownloadsQuery::parse(&query.to_query_string()), Ok(query));
        }
    }

    #[test]
    fn parse_accepts_boolean_forms_and_rejects_others() {
        assert!(DownloadsQuery::parse("redirect=true").unwrap().redirect);
        assert!(!DownloadsQuery::parse("redirect=false").unwrap().redirect);
        assert!(DownloadsQuery::parse("redirect=").unwrap().redirect);
        assert!(DownloadsQuery::parse("redirect=1").is_err());
        // Like every parameter, the last occurrence decides.
        assert!(
            DownloadsQuery::parse("redirect=1&redirect")
                .unwrap()
                .redirect
        );
        assert_eq!(
            DownloadsQuery::parse("format=CSV&format=GML")
                .unwrap()
                .format,
            Some("GML".into())
        );
        assert_eq!(
            DownloadsQuery::parse("key=abc&x").unwrap(),
            DownloadsQuery::default()
        );
    }

    #[test]
    fn filters_combine() {
        let query = DownloadsQuery {
            format: Some("GML".into()),
            subformat: Some("3".into()),
            area: Some(Area::from("SS")),
            ..DownloadsQuery::default()
        };
        let ss = Area::from("SS");
        assert!(query.matches("a.zip", &ss, "GML", Some("3")));
        assert!(!query.matches("a.zip", &ss, "GML", None));
        assert!(!query.matches("a.zip", &Area::from("SU"), "GML", Some("3")));
        assert!(!query.matches("a.zip", &ss, "GeoPackage", Some("3")));
        assert!(DownloadsQuery::default().matches("a.zip", &ss, "GML", None));
    }
}
