//! Name families: the enums a world spec names by string (a standard, a rate control, a
//! congestion control, a queueing discipline, ...). One macro, [`names!`], gives each its name
//! list, parsing, display and serde, so a name is written once, where its model lives; serde
//! rejects an unknown name with the allowed list ("unknown variant `x`, expected one of ...",
//! which `spec::locate` words as "unknown value "x"; allowed: a, b"), and the layers above
//! match the enum (a new name that nothing handles does not compile).

/// A family of names: every member, its name, and the member a name stands for.
pub trait Named: Sized + Copy + 'static {
    /// The names, in declaration order.
    const NAMES: &'static [&'static str];
    /// The members, in declaration order (`ALL[i].name() == NAMES[i]`).
    const ALL: &'static [Self];
    fn name(self) -> &'static str;
    fn from_name(name: &str) -> Option<Self>;
}

/// `names! { /// doc
///     pub enum Recovery { /// doc
///         Tahoe = "tahoe", ... } }`: the enum (Copy, Eq, Hash, Debug), [`Named`], `Display`, and
/// serde as its name.
macro_rules! names {
    ($(#[$meta:meta])* $vis:vis enum $name:ident {
        $($(#[$vmeta:meta])* $variant:ident = $text:literal),+ $(,)?
    }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis enum $name {
            $($(#[$vmeta])* $variant),+
        }

        impl $crate::names::Named for $name {
            const NAMES: &'static [&'static str] = &[$($text),+];
            const ALL: &'static [$name] = &[$($name::$variant),+];
            fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }
            fn from_name(name: &str) -> Option<$name> {
                match name {
                    $($text => Some($name::$variant),)+
                    _ => None,
                }
            }
        }

        impl $name {
            /// The names, in declaration order.
            pub const NAMES: &'static [&'static str] = <$name as $crate::names::Named>::NAMES;
            /// Its name.
            pub fn name(self) -> &'static str {
                <$name as $crate::names::Named>::name(self)
            }
            /// The member called `name`.
            pub fn from_name(name: &str) -> Option<$name> {
                <$name as $crate::names::Named>::from_name(name)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.name())
            }
        }

        impl schemars::JsonSchema for $name {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }
            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                schemars::json_schema!({ "type": "string", "enum": [$($text),+] })
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<$name, D::Error> {
                d.deserialize_str($crate::names::NameVisitor::<$name>(std::marker::PhantomData))
            }
        }
    };
}
pub(crate) use names;

/// serde's visitor of a [`Named`] family: a string that names a member.
pub struct NameVisitor<T>(pub std::marker::PhantomData<T>);

impl<T: Named> serde::de::Visitor<'_> for NameVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // serde's own words for an enum ("one of `a`, `b`"), which spec::locate rewords.
        f.write_str("one of ")?;
        for (i, n) in T::NAMES.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "`{n}`")?;
        }
        Ok(())
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<T, E> {
        // serde's own wording for an unknown variant, with the list however long it is.
        T::from_name(v)
            .ok_or_else(|| E::custom(format_args!("unknown variant `{v}`, expected {}", Expecting(&self))))
    }
}

/// A visitor's `expecting` as a `Display`.
struct Expecting<'a, V>(&'a V);

impl<T: Named> std::fmt::Display for Expecting<'_, NameVisitor<T>> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        serde::de::Visitor::expecting(self.0, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    names! {
        /// A test family.
        pub enum Fruit {
            Apple = "apple",
            /// With a doc.
            BloodOrange = "blood-orange",
        }
    }

    #[test]
    fn a_family_parses_prints_and_lists_its_names() {
        assert_eq!(Fruit::NAMES, ["apple", "blood-orange"]);
        assert_eq!(<Fruit as Named>::ALL, [Fruit::Apple, Fruit::BloodOrange]);
        assert_eq!(Fruit::from_name("blood-orange"), Some(Fruit::BloodOrange));
        assert_eq!(Fruit::from_name("Apple"), None, "names are exact");
        assert_eq!(Fruit::BloodOrange.to_string(), "blood-orange");
        for (m, n) in <Fruit as Named>::ALL.iter().zip(Fruit::NAMES) {
            assert_eq!(m.name(), *n);
        }
    }

    #[test]
    fn serde_reads_and_writes_the_name_and_refuses_others_with_the_list() {
        let f: Fruit = serde_json::from_str("\"apple\"").unwrap();
        assert_eq!(f, Fruit::Apple);
        assert_eq!(serde_json::to_string(&Fruit::BloodOrange).unwrap(), "\"blood-orange\"");
        let e = serde_json::from_str::<Fruit>("\"pear\"").unwrap_err().to_string();
        assert!(e.starts_with("unknown variant `pear`, expected one of `apple`, `blood-orange`"), "{e}");
        let e = serde_json::from_str::<Fruit>("3").unwrap_err().to_string();
        assert!(e.starts_with("invalid type: integer `3`, expected one of `apple`, `blood-orange`"), "{e}");
    }
}
