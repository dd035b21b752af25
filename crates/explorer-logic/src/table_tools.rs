//! Filtering and sorting a table of files (a version's files, a product's downloads)
//! without copying its rows: the keys are lower-cased once per table, and each
//! filter or sort gives the order of row indices to show.

use std::cmp::Ordering;

/// A column a files table can be sorted by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Column {
    Name,
    Area,
    Format,
    Size,
}

impl Column {
    /// The value in the query string.
    pub fn code(self) -> &'static str {
        match self {
            Column::Name => "name",
            Column::Area => "area",
            Column::Format => "format",
            Column::Size => "size",
        }
    }

    /// The column with this query-string value, if there is one.
    pub fn from_code(code: &str) -> Option<Column> {
        [Column::Name, Column::Area, Column::Format, Column::Size]
            .into_iter()
            .find(|column| column.code() == code)
    }

    /// The way a first press on its header sorts: sizes largest first, text A to Z.
    pub fn first_direction(self) -> Direction {
        match self {
            Column::Size => Direction::Descending,
            _ => Direction::Ascending,
        }
    }
}

/// Which way a column is sorted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    Ascending,
    Descending,
}

/// The order of a table: a column and a direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Order {
    pub column: Column,
    pub direction: Direction,
}

impl Order {
    /// The order after pressing `column`'s header: the other direction of the same
    /// column, or that column's first direction.
    pub fn pressed(current: Option<Order>, column: Column) -> Order {
        match current {
            Some(order) if order.column == column => Order {
                column,
                direction: match order.direction {
                    Direction::Ascending => Direction::Descending,
                    Direction::Descending => Direction::Ascending,
                },
            },
            _ => Order {
                column,
                direction: column.first_direction(),
            },
        }
    }

    /// The `aria-sort` value of `column`'s header under `order`.
    pub fn aria_sort(order: Option<Order>, column: Column) -> &'static str {
        match order {
            Some(order) if order.column == column => match order.direction {
                Direction::Ascending => "ascending",
                Direction::Descending => "descending",
            },
            _ => "none",
        }
    }

    /// `name`, `-size`: the value kept in the query string.
    pub fn code(self) -> String {
        match self.direction {
            Direction::Ascending => self.column.code().to_owned(),
            Direction::Descending => format!("-{}", self.column.code()),
        }
    }

    /// Reads [`Order::code`]'s form; `None` for anything else.
    pub fn from_code(code: &str) -> Option<Order> {
        let (direction, column) = match code.strip_prefix('-') {
            Some(column) => (Direction::Descending, column),
            None => (Direction::Ascending, code),
        };
        Some(Order {
            column: Column::from_code(column)?,
            direction,
        })
    }
}

/// A table's filter and order as the page's address keeps them:
/// `filter=su%20gml&sort=-size`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TableQuery {
    /// The filter box's text, as typed.
    pub filter: String,
    /// The sorted column, if any.
    pub order: Option<Order>,
}

impl TableQuery {
    /// From the `filter` and `sort` query values; an unknown order is ignored.
    pub fn from_params(filter: Option<&str>, sort: Option<&str>) -> Self {
        TableQuery {
            filter: filter.unwrap_or_default().to_owned(),
            order: sort.and_then(Order::from_code),
        }
    }

    /// The query pairs to write, leaving out what is not set.
    pub fn pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = Vec::new();
        if !self.filter.trim().is_empty() {
            pairs.push(("filter", self.filter.clone()));
        }
        if let Some(order) = self.order {
            pairs.push(("sort", order.code()));
        }
        pairs
    }
}

/// What a row is filtered and sorted by.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RowKeys<'a> {
    pub name: &'a str,
    pub area: &'a str,
    pub format: &'a str,
    pub size: Option<u64>,
}

/// One row's keys, lower-cased.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Keys {
    name: String,
    area: String,
    format: String,
    size: Option<u64>,
}

/// The keys of every row of a table, made once when its rows arrive.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TableRows {
    rows: Vec<Keys>,
}

impl TableRows {
    /// The keys of `rows`, in the table's own order.
    pub fn new<'a>(rows: impl IntoIterator<Item = RowKeys<'a>>) -> Self {
        let rows = rows
            .into_iter()
            .map(|row| Keys {
                name: row.name.to_lowercase(),
                area: row.area.to_lowercase(),
                format: row.format.to_lowercase(),
                size: row.size,
            })
            .collect();
        TableRows { rows }
    }

    /// How many rows the table has.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether the table has no rows.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The indices of the rows to show, in order: those where every word of `filter`
    /// is found (any case) in the name, area or format, sorted by `order` (ties by
    /// name, then in the table's own order), or in the table's order when `None`.
    /// Rows of unknown size come last whichever way sizes are sorted.
    pub fn view(&self, filter: &str, order: Option<Order>) -> Vec<usize> {
        let words: Vec<String> = filter.split_whitespace().map(str::to_lowercase).collect();
        let mut shown: Vec<usize> = (0..self.rows.len())
            .filter(|&i| words.iter().all(|word| self.rows[i].matches(word)))
            .collect();
        if let Some(order) = order {
            sort_positions(&mut shown, &|a, b| self.compare(a, b, order));
        }
        shown
    }

    fn compare(&self, a: usize, b: usize, order: Order) -> Ordering {
        let (a, b) = (&self.rows[a], &self.rows[b]);
        let directed = |ordering: Ordering| match order.direction {
            Direction::Ascending => ordering,
            Direction::Descending => ordering.reverse(),
        };
        let by_column = match order.column {
            Column::Name => directed(a.name.cmp(&b.name)),
            Column::Area => directed(a.area.cmp(&b.area)),
            Column::Format => directed(a.format.cmp(&b.format)),
            Column::Size => match (a.size, b.size) {
                (Some(a), Some(b)) => directed(a.cmp(&b)),
                (Some(_), None) => Ordering::Less,
                (None, Some(_)) => Ordering::Greater,
                (None, None) => Ordering::Equal,
            },
        };
        by_column.then_with(|| a.name.cmp(&b.name))
    }
}

/// Sorts positions into a list by `order`, keeping equal ones as they were (a stable
/// sort). One sort for every list of the app: each copy of the sort adds to its size.
pub(crate) fn sort_positions(positions: &mut [usize], order: &dyn Fn(usize, usize) -> Ordering) {
    positions.sort_by(|&a, &b| order(a, b));
}

impl Keys {
    fn matches(&self, word: &str) -> bool {
        self.name.contains(word) || self.area.contains(word) || self.format.contains(word)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listing() -> TableRows {
        TableRows::new([
            RowKeys {
                name: "roads_SU.zip",
                area: "SU",
                format: "GeoPackage",
                size: Some(300),
            },
            RowKeys {
                name: "Roads_TQ.zip",
                area: "TQ",
                format: "GML",
                size: None,
            },
            RowKeys {
                name: "rivers_SU.zip",
                area: "SU",
                format: "GML",
                size: Some(900),
            },
            RowKeys {
                name: "rivers_TQ.zip",
                area: "TQ",
                format: "GeoPackage",
                size: Some(300),
            },
        ])
    }

    fn by(column: Column, direction: Direction) -> Option<Order> {
        Some(Order { column, direction })
    }

    /// The sample listing's rows, none filtered out, in this order.
    fn sorted(column: Column, direction: Direction) -> Vec<usize> {
        listing().view("", by(column, direction))
    }

    #[test]
    fn no_filter_and_no_order_shows_every_row_as_listed() {
        assert_eq!(listing().view("", None), [0, 1, 2, 3]);
        assert_eq!(listing().view("   ", None), [0, 1, 2, 3]);
        assert!(TableRows::default().view("a", None).is_empty());
    }

    #[test]
    fn every_word_must_match_the_name_area_or_format_in_any_case() {
        assert_eq!(listing().view("ROADS", None), [0, 1]);
        assert_eq!(listing().view("su", None), [0, 2]);
        assert_eq!(listing().view("gml tq", None), [1]);
        assert_eq!(listing().view("geopackage rivers", None), [3]);
        assert!(listing().view("shapefile", None).is_empty());
    }

    #[test]
    fn sizes_sort_largest_first_with_unknown_sizes_last_and_ties_by_name() {
        let largest_first = sorted(Column::Size, Direction::Descending);
        // 900, then the two of 300 by name (rivers before roads), then unknown.
        assert_eq!(largest_first, [2, 3, 0, 1]);
        let smallest_first = sorted(Column::Size, Direction::Ascending);
        assert_eq!(smallest_first, [3, 0, 2, 1]);
    }

    #[test]
    fn text_columns_sort_ignoring_case_then_by_name() {
        assert_eq!(sorted(Column::Name, Direction::Ascending), [2, 3, 0, 1]);
        assert_eq!(sorted(Column::Name, Direction::Descending), [1, 0, 3, 2]);
        assert_eq!(sorted(Column::Area, Direction::Ascending), [2, 0, 3, 1]);
        assert_eq!(sorted(Column::Format, Direction::Ascending), [3, 0, 2, 1]);
    }

    #[test]
    fn equal_rows_keep_the_tables_own_order() {
        let twins = TableRows::new([
            RowKeys {
                name: "a.zip",
                size: Some(1),
                ..RowKeys::default()
            },
            RowKeys {
                name: "A.zip",
                size: Some(1),
                ..RowKeys::default()
            },
        ]);
        assert_eq!(
            twins.view("", by(Column::Size, Direction::Descending)),
            [0, 1]
        );
    }

    #[test]
    fn filtering_and_sorting_go_together() {
        assert_eq!(
            listing().view("su", by(Column::Size, Direction::Descending)),
            [2, 0]
        );
    }

    #[test]
    fn a_header_press_sorts_then_reverses() {
        let size = Order::pressed(None, Column::Size);
        assert_eq!(size, by(Column::Size, Direction::Descending).unwrap());
        assert_eq!(Order::aria_sort(Some(size), Column::Size), "descending");
        assert_eq!(Order::aria_sort(Some(size), Column::Name), "none");
        let reversed = Order::pressed(Some(size), Column::Size);
        assert_eq!(Order::aria_sort(Some(reversed), Column::Size), "ascending");
        let name = Order::pressed(Some(reversed), Column::Name);
        assert_eq!(name, by(Column::Name, Direction::Ascending).unwrap());
    }

    #[test]
    fn orders_survive_the_query_string() {
        for column in [Column::Name, Column::Area, Column::Format, Column::Size] {
            for direction in [Direction::Ascending, Direction::Descending] {
                let order = Order { column, direction };
                assert_eq!(Order::from_code(&order.code()), Some(order));
            }
        }
        assert_eq!(Order::from_code("-size").unwrap().column, Column::Size);
        assert_eq!(Order::from_code("md5"), None);
        assert_eq!(Order::from_code(""), None);
    }

    #[test]
    fn a_table_query_writes_only_what_is_set() {
        assert!(TableQuery::default().pairs().is_empty());
        assert!(
            TableQuery::from_params(Some("  "), Some("md5"))
                .pairs()
                .is_empty()
        );
        let query = TableQuery::from_params(Some("su gml"), Some("-size"));
        assert_eq!(
            query.pairs(),
            [
                ("filter", "su gml".to_owned()),
                ("sort", "-size".to_owned())
            ]
        );
    }

    #[test]
    fn ten_thousand_rows_filter_and_sort_by_index() {
        let names: Vec<String> = (0..10_000).map(|i| format!("File_{i:05}.zip")).collect();
        let listing = TableRows::new(names.iter().enumerate().map(|(i, name)| RowKeys {
            name,
            area: "SU",
            format: "GML",
            size: Some((i as u64 * 7_919) % 10_007),
        }));
        let sorted = listing.view("file", by(Column::Size, Direction::Descending));
        assert_eq!(sorted.len(), 10_000);
        assert!(
            sorted
                .windows(2)
                .all(|w| listing.rows[w[0]].size >= listing.rows[w[1]].size)
        );
        assert_eq!(listing.view("file_09999", None), [9_999]);
    }
}
