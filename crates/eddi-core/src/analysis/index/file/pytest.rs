//! pytest's tests and fixtures, as the walk sees them. In a test module
//! (`test_*.py`, `*_test.py`) or a `conftest.py`, a test function
//! (`test…` at module level or in a `Test…` class) and a fixture
//! (`@pytest.fixture`) get each bare parameter from the fixture of its
//! name: the walk records the parameter as [`Value::Fixture`], and the
//! index finds which fixture that is at query time, as pytest does
//! (`index/fixtures.rs`). A parameter `@pytest.mark.parametrize` names is
//! given by the parametrization, not a fixture.

use super::nodes::*;
use super::*;

/// The parameters of a test or a fixture that fixtures give.
pub(super) struct Requests {
    /// The test or fixture.
    pub(super) function: DefId,
    /// Names a `parametrize` decorator gives instead.
    parametrized: Vec<Name>,
    /// A `parametrize` whose names are not literal strings: every
    /// parameter may be one of them.
    all_parametrized: bool,
}

impl Requests {
    /// Whether a fixture gives the parameter `name`.
    pub(super) fn gives(&self, name: Name) -> bool {
        !self.all_parametrized && !self.parametrized.contains(&name)
    }
}

/// Whether a module is one pytest collects tests or fixtures from (its
/// default `python_files` pattern, and `conftest.py`).
pub(super) fn is_pytest_module(module: &str, is_package: bool) -> bool {
    let base = module.rsplit('.').next().unwrap_or(module);
    !is_package && (base.starts_with("test_") || base.ends_with("_test") || base == "conftest")
}

/// `pytest.fixture` or `fixture`, the callee or the decorator itself.
fn is_fixture_name(text: &str) -> bool {
    matches!(text, "fixture" | "pytest.fixture")
}

impl<'s, 't> Scanner<'s, 't> {
    /// The function `def` named `name`, defined in `ctx` under
    /// `decorators`, as pytest sees it: a fixture is marked
    /// ([`Def::fixture`]); a test or a fixture gets [`Requests`]. `None`
    /// outside a test module, or for any other function.
    pub(super) fn pytest_requests(
        &mut self,
        def: DefId,
        name: &str,
        decorators: Option<&[Node<'t>]>,
        ctx: Ctx,
    ) -> Option<Requests> {
        if !self.pytest {
            return None;
        }
        let mut fixture = false;
        let mut requests = Requests {
            function: def,
            parametrized: Vec::new(),
            all_parametrized: false,
        };
        for d in decorators.unwrap_or_default() {
            let Some(e) = d.named_child(0) else { continue };
            if matches!(kind_name(e), "identifier" | "attribute") {
                fixture |= is_fixture_name(self.text(e));
                continue;
            }
            if kind_name(e) != "call" {
                continue;
            }
            let [callee, arguments] = fields_of(e, [fields().function, fields().arguments]);
            let (Some(callee), Some(arguments)) = (callee, arguments) else {
                continue;
            };
            let callee = self.text(callee);
            if is_fixture_name(callee) {
                // `@pytest.fixture(name="env")`: known by another name
                let renamed = (0..arguments.named_child_count())
                    .filter_map(|i| arguments.named_child(i))
                    .any(|a| {
                        kind_name(a) == "keyword_argument"
                            && field(a, fields().name).is_some_and(|n| self.text(n) == "name")
                    });
                if renamed {
                    self.file.renamed_fixtures = true;
                } else {
                    fixture = true;
                }
            } else if callee == "parametrize" || callee.ends_with(".parametrize") {
                self.parametrized(arguments, &mut requests);
            }
        }
        let in_test_class = match ctx.class {
            None => true,
            Some(c) => self
                .file
                .name(self.file.defs[c as usize].name)
                .starts_with("Test"),
        };
        if fixture {
            self.file.defs[def as usize].fixture = true;
        } else if !(name.starts_with("test") && in_test_class) {
            return None;
        }
        Some(requests)
    }

    /// The names `@pytest.mark.parametrize("a, b", …)` (or `("a", "b")`)
    /// gives its function's parameters.
    fn parametrized(&mut self, arguments: Node<'t>, requests: &mut Requests) {
        let Some(first) = arguments.named_child(0) else {
            requests.all_parametrized = true;
            return;
        };
        let strings: Vec<Node<'t>> = match kind_name(first) {
            "string" => vec![first],
            "list" | "tuple" => (0..first.named_child_count())
                .filter_map(|i| first.named_child(i))
                .collect(),
            _ => Vec::new(),
        };
        let mut any = false;
        for s in strings {
            let Some(content) = (kind_name(s) == "string")
                .then(|| string_content(s))
                .flatten()
            else {
                requests.all_parametrized = true;
                return;
            };
            for part in self.text(content).split(',') {
                let name = self.intern(part.trim());
                requests.parametrized.push(name);
                any = true;
            }
        }
        requests.all_parametrized |= !any;
    }
}
