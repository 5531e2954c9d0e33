// The page's code editor (CodeMirror), one setup for a problem's solution
// and the playground: the language's highlighting in the theme's colours,
// shortcuts, a label for screen readers, and every change reported.

import { EditorView, basicSetup } from 'codemirror';
import { keymap } from '@codemirror/view';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { tags } from '@lezer/highlight';
import { javascript } from '@codemirror/lang-javascript';
import { python } from '@codemirror/lang-python';

// The editor's colours come from the theme's variables (style.css), so one highlight style serves both themes.
const highlight = HighlightStyle.define([
  { tag: [tags.keyword, tags.controlKeyword, tags.definitionKeyword, tags.moduleKeyword, tags.operatorKeyword], color: 'var(--hl-keyword)' },
  { tag: [tags.string, tags.special(tags.string)], color: 'var(--hl-string)' },
  { tag: [tags.comment, tags.lineComment, tags.blockComment], color: 'var(--hl-comment)', fontStyle: 'italic' },
  { tag: [tags.number, tags.bool, tags.null], color: 'var(--hl-number)' },
  { tag: [tags.function(tags.variableName), tags.function(tags.propertyName)], color: 'var(--hl-def)' },
  { tag: [tags.definition(tags.variableName), tags.className], color: 'var(--hl-name)' },
]);

/**
 * An editor in `parent` holding `doc` in `lang` ('python' | 'javascript'):
 * `keys` CodeMirror key bindings (before the defaults), `label` what screen
 * readers call its text and `scrollerLabel` its scroller, `onChange(text)`
 * after every edit. Returns the EditorView.
 */
export function createEditor({ parent, doc, lang, keys = [], label, scrollerLabel, onChange = () => {} }) {
  const editor = new EditorView({
    doc,
    parent,
    extensions: [
      keymap.of(keys),
      basicSetup,
      syntaxHighlighting(highlight),
      EditorView.contentAttributes.of({ 'aria-label': label }),
      lang === 'python' ? python() : javascript(),
      EditorView.updateListener.of((u) => u.docChanged && onChange(u.state.doc.toString())),
    ],
  });
  // A long text scrolls the editor: its scroller is a tab stop too, so the keyboard reaches all of it (axe's scrollable-region-focusable).
  editor.scrollDOM.tabIndex = 0;
  editor.scrollDOM.setAttribute('aria-label', scrollerLabel);
  return editor;
}

/** Replaces the whole text of `editor` with `text`. */
export function setText(editor, text) {
  editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: text } });
}
