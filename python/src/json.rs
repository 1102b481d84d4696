//! JSON values (a note's metadata) to Python objects and back.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Map, Value};

/// `value` as a Python object: dicts, lists, strings, ints, floats, bools and `None`.
pub fn to_py<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else {
                n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any()
            }
        }
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_py(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => map_to_py(py, map)?.into_any(),
    })
}

/// `map` as a Python dict.
pub fn map_to_py<'py>(py: Python<'py>, map: &Map<String, Value>) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for (key, value) in map {
        dict.set_item(key, to_py(py, value)?)?;
    }
    Ok(dict)
}

/// How deep a value given to the library may nest.
const MAX_DEPTH: usize = 64;

/// A Python value as JSON: dicts with string keys, lists and tuples, strings, ints, floats,
/// bools and `None`; anything else is a `TypeError` naming where it was.
pub fn from_py(value: &Bound<'_, PyAny>, at: &str, depth: usize) -> PyResult<Value> {
    if depth > MAX_DEPTH {
        return Err(PyTypeError::new_err(format!(
            "{at}: nested more than {MAX_DEPTH} levels deep"
        )));
    }
    if value.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(b) = value.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if value.cast::<PyInt>().is_ok() {
        if let Ok(i) = value.extract::<i64>() {
            return Ok(Value::from(i));
        }
        if let Ok(u) = value.extract::<u64>() {
            return Ok(Value::from(u));
        }
        return Err(PyTypeError::new_err(format!(
            "{at}: the integer {value} does not fit in 64 bits; give it as a string"
        )));
    }
    if let Ok(f) = value.cast::<PyFloat>() {
        let f = f.value();
        return serde_json::Number::from_f64(f)
            .map(Value::Number)
            .ok_or_else(|| PyTypeError::new_err(format!("{at}: {f} is not a JSON number")));
    }
    if let Ok(s) = value.cast::<PyString>() {
        return Ok(Value::String(s.to_cow()?.into_owned()));
    }
    if let Ok(dict) = value.cast::<PyDict>() {
        return dict_from_py(dict, at, depth).map(Value::Object);
    }
    if value.cast::<PyList>().is_ok() || value.cast::<PyTuple>().is_ok() {
        let mut items = Vec::new();
        for (i, item) in value.try_iter()?.enumerate() {
            items.push(from_py(&item?, &format!("{at}[{i}]"), depth + 1)?);
        }
        return Ok(Value::Array(items));
    }
    Err(PyTypeError::new_err(format!(
        "{at}: a {} cannot be kept in a checkpoint's metadata (use str, int, float, bool, None, list or dict)",
        value.get_type().name()?
    )))
}

/// A Python dict (or any mapping) with string keys as a JSON object.
pub fn dict_from_py(
    dict: &Bound<'_, PyAny>,
    at: &str,
    depth: usize,
) -> PyResult<Map<String, Value>> {
    let mut map = Map::new();
    let items = dict.call_method0("items").map_err(|_| {
        PyTypeError::new_err(format!(
            "{at}: expected a dict, got {}",
            dict.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ))
    })?;
    for item in items.try_iter()? {
        let (key, value): (Bound<'_, PyAny>, Bound<'_, PyAny>) = item?.extract()?;
        let Ok(key) = key.cast::<PyString>() else {
            return Err(PyTypeError::new_err(format!(
                "{at}: keys must be strings, not {}",
                key.get_type().name()?
            )));
        };
        let key = key.to_cow()?.into_owned();
        let value = from_py(&value, &format!("{at}[{key:?}]"), depth + 1)?;
        map.insert(key, value);
    }
    Ok(map)
}
