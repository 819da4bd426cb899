//! What a search returns: a [`Value`] (a number, or a payoff vector in n-player trees) and,
//! from an algorithm's search function, a [`Found`]: the value with its bound.

use std::fmt;

use serde::Serialize;

use super::Bound;
use crate::text::number_text;

/// A search's value: a number, or a payoff vector in n-player trees.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Value {
    /// A two-player or chance node's value.
    Scalar(f64),
    /// An n-player node's payoff vector, a component a player.
    Vector(Vec<f64>),
}

impl Value {
    /// The value, when it is one number.
    pub fn scalar(&self) -> Option<f64> {
        match self {
            Value::Scalar(v) => Some(*v),
            Value::Vector(_) => None,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Scalar(v) => f.write_str(&number_text(*v)),
            Value::Vector(v) => {
                let parts: Vec<String> = v.iter().map(|&x| number_text(x)).collect();
                write!(f, "({})", parts.join(", "))
            }
        }
    }
}

/// What an algorithm's search function returns.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    /// The value found.
    pub value: Value,
    /// Whether it is exact or a bound.
    pub bound: Bound,
}

impl Found {
    /// An exact value.
    pub fn exact(v: f64) -> Self {
        Found {
            value: Value::Scalar(v),
            bound: Bound::Exact,
        }
    }
}
