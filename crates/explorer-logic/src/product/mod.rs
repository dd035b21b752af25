//! The product page: what is picked (areas, format) and where, on the map of Great
//! Britain's grid squares and its towns.

pub mod grid_ref;
pub mod places;
pub mod selection;
pub mod shape;
