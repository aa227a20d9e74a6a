//! The strongly connected components of a module graph (Tarjan), shared by the layering
//! tests of sgctl-proto (`proto/tests/module_layers.rs`) and of the sgctl library
//! (`tests/it/module_layers.rs`).

use std::collections::{BTreeMap, BTreeSet};

/// The strongly connected components of two or more nodes of `g` (a node → the nodes it
/// names), each sorted, in order: every cycle of the graph lies inside one of them.
pub(crate) fn cycles<K: Ord + Clone>(g: &BTreeMap<K, BTreeSet<K>>) -> Vec<Vec<K>> {
    struct St<'a, K> {
        g: &'a BTreeMap<K, BTreeSet<K>>,
        index: BTreeMap<&'a K, usize>,
        low: BTreeMap<&'a K, usize>,
        stack: Vec<&'a K>,
        on: BTreeSet<&'a K>,
        next: usize,
        out: Vec<Vec<K>>,
    }
    fn visit<'a, K: Ord + Clone>(st: &mut St<'a, K>, v: &'a K) {
        st.index.insert(v, st.next);
        st.low.insert(v, st.next);
        st.next += 1;
        st.stack.push(v);
        st.on.insert(v);
        let g = st.g;
        for w in g.get(v).into_iter().flatten() {
            let Some((w, _)) = g.get_key_value(w) else {
                continue;
            };
            if !st.index.contains_key(w) {
                visit(st, w);
                let l = st.low[w].min(st.low[v]);
                st.low.insert(v, l);
            } else if st.on.contains(w) {
                let l = st.index[w].min(st.low[v]);
                st.low.insert(v, l);
            }
        }
        if st.low[v] == st.index[v] {
            let mut scc = Vec::new();
            while let Some(w) = st.stack.pop() {
                st.on.remove(w);
                scc.push(w.clone());
                if w == v {
                    break;
                }
            }
            if scc.len() > 1 {
                scc.sort();
                st.out.push(scc);
            }
        }
    }
    let mut st = St {
        g,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in g.keys() {
        if !st.index.contains_key(v) {
            visit(&mut st, v);
        }
    }
    st.out.sort();
    st.out
}
