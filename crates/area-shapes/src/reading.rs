//! Reading a boundary as a job done in slices, so that whoever runs it (the app's worker,
//! through the worker module's `read_reporting`, above this one) can say how far it is
//! between them.

use crate::boundary::Boundary;
use crate::grid::Cover;
use crate::projection;
use crate::read::{self, Crs, Opened, Parsed, Unzipping};
use crate::shapes::{PartKind, Shapes};
use crate::{FileKind, ShapeError};

/// A boundary file being read: [`Reading::step`] until [`Step::Done`].
///
/// The first step parses the file (under 20 ms natively for 5 MB of GeoJSON or KML,
/// docs/performance.md); a zipped file is inflated over the steps after, 16 bytes (a
/// shapefile's vertex) for each vertex of the budget, and parsed with the last. Each step
/// after projects and intersects at most the vertices it is given, in order through the
/// file (about 0.3 µs a vertex natively, with proj4rs). The job borrows the file's bytes:
/// keep them alive while it runs.
pub struct Reading<'a> {
    kind: FileKind,
    bytes: &'a [u8],
    limit: u64,
    stage: Stage<'a>,
}

enum Stage<'a> {
    Parse,
    Inflate(Box<Unzipping<'a>>),
    Walk(Box<Walk>),
    Finished,
}

/// Bytes of a zipped file inflated per vertex of a step's budget: a shapefile's vertex.
const BYTES_PER_VERTEX: usize = 16;

impl std::fmt::Debug for Reading<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let stage = match &self.stage {
            Stage::Parse => "parse",
            Stage::Inflate(_) => "inflate",
            Stage::Walk(_) => "walk",
            Stage::Finished => "finished",
        };
        f.debug_struct("Reading")
            .field("kind", &self.kind)
            .field("bytes", &self.bytes.len())
            .field("stage", &stage)
            .finish()
    }
}

/// How far a job is.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// `done` of the file's `total` vertices are projected and intersected (both 0 while a
    /// zipped file is inflated: its vertices are not counted yet).
    Working { done: usize, total: usize },
    /// The boundary with its coverage, or why there is none.
    Done(Result<Boundary, ShapeError>),
}

impl<'a> Reading<'a> {
    /// Starts reading `bytes`, the file called `name`: it must be at most `limit` bytes and
    /// of a kind known by its name or content.
    pub fn new(name: &str, bytes: &'a [u8], limit: u64) -> Result<Self, ShapeError> {
        let size = bytes.len() as u64;
        if size > limit {
            return Err(ShapeError::TooLarge { size, limit });
        }
        Ok(Reading {
            kind: read::detect(name, bytes)?,
            bytes,
            limit,
            stage: Stage::Parse,
        })
    }

    /// Does the next slice of work: the parse, or up to `budget_vertices` vertices (at
    /// least one).
    ///
    /// # Panics
    ///
    /// When called again after it returned [`Step::Done`].
    pub fn step(&mut self, budget_vertices: usize) -> Step {
        match std::mem::replace(&mut self.stage, Stage::Finished) {
            Stage::Parse => match read::open(self.kind, self.bytes, self.limit) {
                Err(error) => Step::Done(Err(error)),
                Ok(Opened::Parsed(parsed)) => self.walk(parsed),
                Ok(Opened::Unzipping(unzipping)) => {
                    self.stage = Stage::Inflate(Box::new(unzipping));
                    Step::Working { done: 0, total: 0 }
                }
            },
            Stage::Inflate(mut unzipping) => {
                match unzipping.inflate(budget_vertices.saturating_mul(BYTES_PER_VERTEX)) {
                    Err(error) => Step::Done(Err(error)),
                    Ok(false) => {
                        self.stage = Stage::Inflate(unzipping);
                        Step::Working { done: 0, total: 0 }
                    }
                    Ok(true) => match unzipping.finish() {
                        Err(error) => Step::Done(Err(error)),
                        Ok(parsed) => self.walk(parsed),
                    },
                }
            }
            Stage::Walk(mut walk) => {
                if let Err(error) = walk.advance(budget_vertices.max(1), self.kind) {
                    return Step::Done(Err(error));
                }
                let total = walk.shapes.coords.len();
                if walk.next < total {
                    let done = walk.next;
                    self.stage = Stage::Walk(walk);
                    return Step::Working { done, total };
                }
                let coverage = walk.cover.coverage();
                Step::Done(if coverage.squares.is_empty() {
                    Err(ShapeError::OutsideGreatBritain)
                } else {
                    Ok(Boundary {
                        kind: self.kind,
                        shapes: walk.shapes,
                        coverage,
                    })
                })
            }
            Stage::Finished => panic!("Reading::step called after Step::Done"),
        }
    }

    /// Starts on the vertices of a file read.
    fn walk(&mut self, parsed: Parsed) -> Step {
        if parsed.shapes.is_empty() {
            return Step::Done(Err(ShapeError::NoGeometry));
        }
        self.kind = parsed.kind;
        let lon_lat = parsed.crs == Crs::LonLat;
        let shapes = if lon_lat {
            projection::round_the_antimeridian(parsed.shapes)
        } else {
            parsed.shapes
        };
        let total = shapes.coords.len();
        self.stage = Stage::Walk(Box::new(Walk {
            lon_lat,
            shapes,
            next: 0,
            part: 0,
            moved: false,
            cover: Cover::default(),
        }));
        Step::Working { done: 0, total }
    }
}

/// Reads a file by its name and bytes in one go. `limit` is the largest size accepted, in
/// bytes (it applies to a zipped shapefile's `.shp` inflated too).
pub fn read_boundary(name: &str, bytes: &[u8], limit: u64) -> Result<Boundary, ShapeError> {
    let mut reading = Reading::new(name, bytes, limit)?;
    loop {
        if let Step::Done(result) = reading.step(usize::MAX) {
            return result;
        }
    }
}

/// Projecting and intersecting the vertices in order, each part's as they come.
#[derive(Debug)]
struct Walk {
    shapes: Shapes,
    /// Whether the vertices are longitudes and latitudes, to project (else they are in
    /// British National Grid metres already).
    lon_lat: bool,
    /// The next vertex, and the part it is in.
    next: usize,
    part: usize,
    /// Whether the current line has gone anywhere yet (one that never does is a point).
    moved: bool,
    cover: Cover,
}

impl Walk {
    fn advance(&mut self, budget: usize, kind: FileKind) -> Result<(), ShapeError> {
        let end = self
            .next
            .saturating_add(budget)
            .min(self.shapes.coords.len());
        if self.lon_lat {
            projection::project(&mut self.shapes.coords[self.next..end])
                .map_err(|_| ShapeError::Unreadable(kind))?;
        }
        for index in self.next..end {
            self.vertex(index);
        }
        self.next = end;
        Ok(())
    }

    fn vertex(&mut self, index: usize) {
        let range = self.shapes.range(self.part);
        let kind = self.shapes.parts[self.part].kind;
        let coords = &self.shapes.coords;
        let at = coords[index];
        if kind == PartKind::Points {
            self.cover.point(at);
        } else if index > range.start {
            let before = coords[index - 1];
            self.moved |= before != at;
            match kind {
                PartKind::Line => self.cover.line(before, at),
                _ => self.cover.edge(before, at),
            }
        }
        if index + 1 < range.end {
            return;
        }
        // The part's last vertex.
        let first = coords[range.start];
        match kind {
            PartKind::Points => {}
            PartKind::Line if !self.moved => self.cover.point(first),
            PartKind::Line => {}
            PartKind::Ring { .. } => {
                self.cover.edge(at, first);
                let next = self.shapes.parts.get(self.part + 1).map(|part| part.kind);
                if next != Some(PartKind::Ring { first: false }) {
                    self.cover.end_polygon();
                }
            }
        }
        self.part += 1;
        self.moved = false;
    }
}
