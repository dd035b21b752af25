//! Windowed (virtual) lists: which rows of a long list are on screen, so only those
//! (plus a margin) are in the page, with empty space above and below standing in for
//! the rest.
//!
//! Rows have one fixed height (measured from a shown row). Offsets are in CSS pixels,
//! measured from the top of the list's first row.

use std::ops::Range;

/// Tables this long or shorter are shown whole: a small page stays plain.
pub const SHOW_WHOLE_UP_TO: usize = Items::TABLE_ROWS.whole_up_to;

/// What a list is made of: what it is windowed by until measured, and how long it
/// may be and still be drawn whole in one go.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Items {
    /// An item's height (a line's, for a grid), in pixels, about.
    pub height: f64,
    /// Lists this long or shorter are shown whole.
    pub whole_up_to: usize,
}

impl Items {
    /// Table rows: cheap to draw, 200 in one go is fine.
    pub const TABLE_ROWS: Items = Items {
        height: 40.0,
        whole_up_to: 200,
    };
    /// A bulk download's progress lines: each has a bar and two texts that change as
    /// bytes come. Drawn whole, a run of 200 small files made its start the page's
    /// longest pause (about 100 ms in WebKit: `cargo xtask bench download`). A box of
    /// them shows a dozen.
    pub const PROGRESS_LINES: Items = Items {
        height: 24.0,
        whole_up_to: 20,
    };
    /// The gallery's cards: each costs as much as a dozen rows, so only a couple of
    /// screenfuls are drawn whole.
    pub const CARDS: Items = Items {
        height: 420.0,
        whole_up_to: 24,
    };
}

/// The geometry of a windowed list: what the page measured, and the rule for which
/// rows it shows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Window {
    /// Height of one row (for a grid, one line of cards), in pixels; at least 1.
    pub row_height: f64,
    /// Rows kept above and below the visible ones: [`MARGIN_PX`] worth, at least 2.
    pub margin: usize,
    /// Items per row: 1 for a table, the number of columns for a grid.
    pub per_row: usize,
    /// Lists this long or shorter are shown whole.
    pub whole_up_to: usize,
}

/// How far past the screen's edges items are kept, in pixels: enough that a quick
/// scroll shows no gap, few enough that tall cards are not drawn by the dozen.
pub const MARGIN_PX: f64 = 400.0;

impl Default for Window {
    /// Table rows, until measured.
    fn default() -> Self {
        Window::estimated(Items::TABLE_ROWS)
    }
}

/// What the page tells a [`Window`] about where the list is.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Viewport {
    /// How far the list's top is above the top of the screen (negative when the list
    /// starts lower down the screen).
    pub scrolled: f64,
    /// The screen's height.
    pub height: f64,
}

impl Window {
    /// A window for one item per row, as high as `items` says, until the page is
    /// measured: a good guess keeps the first drawing small.
    pub fn estimated(items: Items) -> Self {
        let row_height = items.height.max(1.0);
        Window {
            row_height,
            margin: margin_rows(row_height),
            per_row: 1,
            whole_up_to: items.whole_up_to,
        }
    }

    /// Whether a list of `total` items is windowed, rather than shown whole.
    pub fn windows(&self, total: usize) -> bool {
        total > self.whole_up_to
    }

    /// The same window with a newly measured row height (ignored when not positive,
    /// e.g. measured while hidden) and items per row (at least 1).
    pub fn measured(self, row_height: f64, per_row: usize) -> Self {
        let row_height = if row_height > 0.0 {
            row_height
        } else {
            self.row_height
        };
        Window {
            row_height,
            margin: margin_rows(row_height),
            per_row: per_row.max(1),
            ..self
        }
    }

    /// The window measured anew from the tops of the items shown, in the list's
    /// order: the items level with the first make a row, and the row height is the
    /// distance from the first row to the last over the rows between. A change of
    /// less than half a pixel keeps the old height: not worth a redraw.
    pub fn remeasured(self, tops: &[f64]) -> Self {
        let per_row = tops
            .iter()
            .take_while(|top| Some(*top) == tops.first())
            .count();
        let lines = tops.len().div_ceil(per_row.max(1));
        let row_height = match (tops.first(), tops.last()) {
            (Some(first), Some(last)) if lines > 1 => (last - first) / (lines - 1) as f64,
            _ => 0.0,
        };
        let window = self.measured(row_height, per_row);
        if (window.row_height - self.row_height).abs() < 0.5 {
            Window {
                row_height: self.row_height,
                ..window
            }
        } else {
            window
        }
    }

    /// Where the list's top is on screen, from the top of the item at `pos`: above
    /// it by the rows before that item.
    pub fn list_top(&self, item_top: f64, pos: usize) -> f64 {
        item_top - (pos / self.per_row.max(1)) as f64 * self.row_height
    }

    fn rows(&self, items: usize) -> usize {
        items.div_ceil(self.per_row.max(1))
    }

    fn row_height(&self) -> f64 {
        self.row_height.max(1.0)
    }

    /// The items to show out of `total`: those on screen plus the margin, whole rows,
    /// never past the end (so a list that shrank shows its end rather than nothing).
    /// A list of at most [`Window::whole_up_to`] items is shown whole.
    pub fn range(&self, total: usize, view: Viewport) -> Range<usize> {
        if !self.windows(total) {
            return 0..total;
        }
        let rows = self.rows(total);
        let top = (view.scrolled / self.row_height()).floor().max(0.0) as usize;
        let bottom = ((view.scrolled + view.height.max(0.0)) / self.row_height())
            .ceil()
            .max(0.0) as usize;
        let last = bottom.saturating_add(self.margin).min(rows);
        // Scrolled past the end (the list just shrank): its last screenful.
        let first = top
            .saturating_sub(self.margin)
            .min(last.saturating_sub(bottom - top + self.margin));
        let per_row = self.per_row.max(1);
        (first * per_row).min(total)..(last * per_row).min(total)
    }

    /// The empty space standing in for the items before and after `shown`, in pixels.
    pub fn padding(&self, total: usize, shown: &Range<usize>) -> (f64, f64) {
        let per_row = self.per_row.max(1);
        let before = shown.start / per_row;
        let after = self.rows(total) - self.rows(shown.end.min(total));
        (
            before as f64 * self.row_height(),
            after as f64 * self.row_height(),
        )
    }

    /// Where to scroll the page (a new `scrolled`) so the item `index` is fully on
    /// screen, or `None` when it already is. Moves as little as possible.
    pub fn scroll_to_show(&self, index: usize, view: Viewport) -> Option<f64> {
        let top = (index / self.per_row.max(1)) as f64 * self.row_height();
        let bottom = top + self.row_height();
        if top < view.scrolled {
            Some(top)
        } else if bottom > view.scrolled + view.height {
            Some(bottom - view.height)
        } else {
            None
        }
    }

    /// How many rows a Page Up or Page Down moves: a screenful, at least one.
    pub fn page_rows(&self, view: Viewport) -> usize {
        ((view.height / self.row_height()).floor() as usize)
            .saturating_sub(1)
            .max(1)
    }
}

/// A key that moves the focus within a list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    Up,
    Down,
    PageUp,
    PageDown,
    Home,
    End,
}

impl Move {
    /// The move for a `KeyboardEvent.key`, if it is one.
    pub fn from_key(key: &str) -> Option<Move> {
        Some(match key {
            "ArrowUp" => Move::Up,
            "ArrowDown" => Move::Down,
            "PageUp" => Move::PageUp,
            "PageDown" => Move::PageDown,
            "Home" => Move::Home,
            "End" => Move::End,
            _ => return None,
        })
    }

    /// The position reached from `from` in a list of `total` (`None` when empty),
    /// where a page is `page` positions.
    pub fn from(self, from: usize, total: usize, page: usize) -> Option<usize> {
        let last = total.checked_sub(1)?;
        let from = from.min(last);
        Some(match self {
            Move::Up => from.saturating_sub(1),
            Move::Down => (from + 1).min(last),
            Move::PageUp => from.saturating_sub(page),
            Move::PageDown => from.saturating_add(page).min(last),
            Move::Home => 0,
            Move::End => last,
        })
    }
}

/// The row that takes the Tab stop: the one last focused while it is shown, else the
/// first shown (so Tab always lands inside the list, on screen).
pub fn tab_stop(active: usize, shown: &Range<usize>) -> usize {
    if shown.contains(&active) {
        active
    } else {
        shown.start
    }
}

/// Whole rows covering [`MARGIN_PX`], at least 2.
fn margin_rows(row_height: f64) -> usize {
    (MARGIN_PX / row_height.max(1.0)).ceil().max(2.0) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Window {
        Window {
            row_height: 40.0,
            margin: 5,
            per_row: 1,
            whole_up_to: 200,
        }
    }

    fn at(scrolled: f64, height: f64) -> Viewport {
        Viewport { scrolled, height }
    }

    #[test]
    fn a_grid_is_measured_from_its_items_tops() {
        let old = Window::estimated(Items::CARDS);
        // Three cards a row, rows 300 px apart.
        let tops = [100.0, 100.0, 100.0, 400.0, 400.0, 400.0, 700.0];
        let grid = old.remeasured(&tops);
        assert_eq!((grid.per_row, grid.row_height), (3, 300.0));
        // The list starts two rows above the seventh card (position 6).
        assert_eq!(grid.list_top(700.0, 6), 100.0);
        // Half a pixel's wobble keeps the height; a row alone keeps it too.
        assert_eq!(grid.remeasured(&[0.0, 300.4]).row_height, 300.0);
        assert_eq!(grid.remeasured(&[0.0, 0.0]).row_height, 300.0);
        assert_eq!(grid.remeasured(&[0.0, 0.0]).per_row, 2);
        // Nothing shown: nothing learnt.
        assert_eq!(grid.remeasured(&[]).row_height, 300.0);
    }

    #[test]
    fn a_run_of_200_files_draws_the_progress_lines_in_view_where_a_table_draws_all() {
        let screen = at(0.0, 800.0);
        let lines = Window::estimated(Items::PROGRESS_LINES);
        let table = Window::estimated(Items::TABLE_ROWS);
        assert_eq!(table.range(200, screen), 0..200);
        // 800 px of 24 px lines (34) and 400 px of margin below (17).
        assert_eq!(lines.range(200, screen), 0..51);
        assert_eq!(lines.range(20, screen), 0..20, "a short run is drawn whole");
    }

    #[test]
    fn a_short_list_is_shown_whole_wherever_the_page_is() {
        assert_eq!(table().range(200, at(5_000.0, 800.0)), 0..200);
        assert_eq!(table().range(0, at(0.0, 800.0)), 0..0);
    }

    #[test]
    fn the_top_of_a_long_list_shows_a_screenful_and_the_margin() {
        // 800 px of 40 px rows: 20 on screen, 5 more below.
        assert_eq!(table().range(10_000, at(0.0, 800.0)), 0..25);
        let (above, below) = table().padding(10_000, &(0..25));
        assert_eq!(above, 0.0);
        assert_eq!(below, 9_975.0 * 40.0);
    }

    #[test]
    fn a_list_lower_down_the_page_shows_only_what_reaches_the_screen() {
        // The list starts 600 px below the top of the screen: 5 rows show, plus the margin.
        assert_eq!(table().range(10_000, at(-600.0, 800.0)), 0..10);
        // Far below the screen: only the margin.
        assert_eq!(table().range(10_000, at(-5_000.0, 800.0)), 0..5);
    }

    #[test]
    fn scrolling_moves_the_window_and_the_space_adds_up() {
        let window = table();
        let shown = window.range(10_000, at(40_000.0, 800.0));
        assert_eq!(shown, 995..1_025);
        let (above, below) = window.padding(10_000, &shown);
        let rows = (shown.end - shown.start) as f64;
        assert_eq!(above + rows * 40.0 + below, 10_000.0 * 40.0);
    }

    #[test]
    fn the_end_of_the_list_shows_the_last_row() {
        let shown = table().range(10_000, at(400_000.0 - 800.0, 800.0));
        assert_eq!(shown.end, 10_000);
        assert_eq!(table().padding(10_000, &shown).1, 0.0);
    }

    #[test]
    fn a_list_that_shrank_below_the_scroll_shows_its_end() {
        // Scrolled far down a list of 10,000, then filtered to 300.
        let shown = table().range(300, at(300_000.0, 800.0));
        assert_eq!(shown, 275..300);
        assert_eq!(table().padding(300, &shown), (275.0 * 40.0, 0.0));
    }

    #[test]
    fn a_grid_shows_whole_lines_of_cards() {
        let grid = table().measured(400.0, 3);
        // 1,000 cards in 334 lines; 900 px shows lines 0..3, plus a margin of 2 below
        // (400 px is one line of cards, and never fewer than 2).
        assert_eq!(grid.margin, 2);
        assert_eq!(grid.range(1_000, at(0.0, 900.0)), 0..15);
        let shown = grid.range(1_000, at(20_000.0, 900.0));
        assert_eq!(shown, 144..165);
        let (above, below) = grid.padding(1_000, &shown);
        assert_eq!(above, 48.0 * 400.0);
        // The last line holds one card: 334 lines in all.
        assert_eq!(above + 7.0 * 400.0 + below, 334.0 * 400.0);
        assert_eq!(grid.range(1_000, at(1e9, 900.0)), 3 * 329..1_000);
    }

    #[test]
    fn cards_are_windowed_sooner_than_table_rows() {
        let cards = Window::estimated(Items::CARDS).measured(420.0, 4);
        assert_eq!(cards.range(24, at(5_000.0, 800.0)), 0..24);
        // 100 cards: the first two lines and the margin, not all 100.
        assert_eq!(cards.range(100, at(0.0, 800.0)), 0..16);
        assert_eq!(Window::default().range(100, at(0.0, 800.0)), 0..100);
    }

    #[test]
    fn the_margin_is_a_few_hundred_pixels_of_rows() {
        assert_eq!(Window::default().margin, 10);
        assert_eq!(Window::estimated(Items::CARDS).margin, 2);
        // A table measured with taller rows keeps fewer of them.
        assert_eq!(Window::default().measured(80.0, 1).margin, 5);
        // Before measuring, cards estimated at 420 px: a 800 px screen draws 4.
        assert_eq!(
            Window::estimated(Items::CARDS).range(1_000, at(0.0, 800.0)),
            0..4
        );
    }

    #[test]
    fn a_measurement_taken_while_hidden_is_ignored() {
        let window = table().measured(0.0, 0);
        assert_eq!(window.row_height, 40.0);
        assert_eq!(window.per_row, 1);
    }

    #[test]
    fn scrolling_to_a_row_moves_the_least_needed() {
        let window = table();
        assert_eq!(window.scroll_to_show(10, at(0.0, 800.0)), None);
        // Row 30 is below the screen: its bottom goes to the bottom of the screen.
        assert_eq!(
            window.scroll_to_show(30, at(0.0, 800.0)),
            Some(31.0 * 40.0 - 800.0)
        );
        // Row 3 is above: its top goes to the top.
        assert_eq!(window.scroll_to_show(3, at(400.0, 800.0)), Some(120.0));
        assert_eq!(window.page_rows(at(0.0, 800.0)), 19);
        assert_eq!(window.page_rows(at(0.0, 10.0)), 1);
    }

    #[test]
    fn keys_move_within_the_list_and_stop_at_its_ends() {
        assert_eq!(Move::from_key("ArrowDown"), Some(Move::Down));
        assert_eq!(Move::from_key("a"), None);
        assert_eq!(Move::Down.from(0, 10_000, 19), Some(1));
        assert_eq!(Move::Up.from(0, 10_000, 19), Some(0));
        assert_eq!(Move::PageDown.from(9_990, 10_000, 19), Some(9_999));
        assert_eq!(Move::PageUp.from(10, 10_000, 19), Some(0));
        assert_eq!(Move::End.from(0, 10_000, 19), Some(9_999));
        assert_eq!(Move::Home.from(500, 10_000, 19), Some(0));
        // A focus left past the end of a list that shrank comes back inside it.
        assert_eq!(Move::Down.from(9_000, 300, 19), Some(299));
        assert_eq!(Move::Down.from(0, 0, 19), None);
    }

    #[test]
    fn the_tab_stop_is_the_last_focused_row_while_shown() {
        assert_eq!(tab_stop(12, &(0..30)), 12);
        assert_eq!(tab_stop(500, &(100..130)), 100);
    }
}
