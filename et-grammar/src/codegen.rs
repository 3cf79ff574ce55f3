//! Token emission for `#[derive(Grammar)]`: a [`Grammar`] as the static tables of a
//! [`CompiledGrammar`](crate::CompiledGrammar) literal, so the macro crate only reads
//! its attribute and names things.

use proc_macro2::TokenStream;
use quote::quote;

use crate::{Extension, Grammar, Item};

/// The `CompiledGrammar` literal of `grammar`. `krate` is the path under which the user's
/// crate reaches this crate's types (`::et_core::grammar`); `source_path` is the `.pest`
/// file's full path, `include_str!`ed so that cargo rebuilds when the file changes.
pub fn compiled_grammar(
    grammar: &Grammar,
    krate: &TokenStream,
    source_path: &str,
    extension: Option<Extension>,
) -> TokenStream {
    let name = &grammar.name;
    let file = &grammar.file;
    let doc = &grammar.doc;
    let tokens = &grammar.tokens;
    let start = grammar.start;
    let rules = grammar.nonterminals.iter().map(|nt| {
        let name = &nt.name;
        let (line, column) = (nt.position.line, nt.position.column);
        let generated_in = match nt.generated_in {
            Some(owner) => quote!(::core::option::Option::Some(#owner)),
            None => quote!(::core::option::Option::None),
        };
        let alternatives = nt.alternatives.iter().map(|alt| {
            let cost = alt.cost;
            let items = alt.items.iter().map(|item| match *item {
                Item::Token(t) => quote!(#krate::Item::Token(#t)),
                Item::Child(c) => quote!(#krate::Item::Child(#c)),
            });
            quote! {
                #krate::CompiledAlternative { cost: #cost, items: &[#(#items),*] }
            }
        });
        quote! {
            #krate::CompiledRule {
                name: #name,
                line: #line,
                column: #column,
                generated_in: #generated_in,
                alternatives: &[#(#alternatives),*],
            }
        }
    });
    let warnings = grammar.warnings.iter().map(|w| {
        let (line, column, message) = (w.position.line, w.position.column, &w.message);
        quote! {
            #krate::CompiledWarning { line: #line, column: #column, message: #message }
        }
    });
    let extension = match extension {
        Some(Extension { vars, asserts }) => quote! {
            ::core::option::Option::Some(#krate::Extension { vars: #vars, asserts: #asserts })
        },
        None => quote!(::core::option::Option::None),
    };
    quote! {
        #krate::CompiledGrammar {
            name: #name,
            file: #file,
            doc: #doc,
            source: ::core::include_str!(#source_path),
            extension: #extension,
            tokens: &[#(#tokens),*],
            rules: &[#(#rules),*],
            start: #start,
            warnings: &[#(#warnings),*],
        }
    }
}
