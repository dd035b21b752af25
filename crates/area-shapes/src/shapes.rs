//! Every part of a boundary in one array of vertices, so a job can project and intersect
//! it in slices of any size, across parts.

use std::ops::Range;

use geo::Coord;

/// What a run of vertices is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PartKind {
    /// Separate points.
    Points,
    /// A line through the vertices.
    Line,
    /// A polygon's ring, closed or not. `first` starts a polygon: the rings up to the next
    /// first one are its holes (or, for a shapefile record, its other rings), taken together
    /// by the even–odd rule.
    Ring { first: bool },
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Part {
    pub kind: PartKind,
    /// One past its last vertex in [`Shapes::coords`]; it starts where the one before ends.
    pub end: usize,
}

/// The points, lines and rings read from a file, in the file's coordinates until projected.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Shapes {
    pub coords: Vec<Coord>,
    pub parts: Vec<Part>,
}

impl Shapes {
    /// Adds a part; one with no vertices is left out.
    pub fn add(&mut self, kind: PartKind, coords: impl IntoIterator<Item = Coord>) {
        let start = self.coords.len();
        self.coords.extend(coords);
        if self.coords.len() > start {
            self.parts.push(Part {
                kind,
                end: self.coords.len(),
            });
        }
    }

    pub fn is_empty(&self) -> bool {
        self.parts.is_empty()
    }

    /// The vertices of part `index`.
    pub fn range(&self, index: usize) -> Range<usize> {
        let start = index
            .checked_sub(1)
            .map_or(0, |before| self.parts[before].end);
        start..self.parts[index].end
    }

    /// Each part's kind and vertices.
    pub fn iter(&self) -> impl Iterator<Item = (PartKind, &[Coord])> {
        (0..self.parts.len()).map(|index| (self.parts[index].kind, &self.coords[self.range(index)]))
    }
}
