import { Plugin, type Transaction } from '@tiptap/pm/state';
import { NodeIdAttribute } from './sdk-extensions.js';
import { isInlineStep } from './structure-guard.js';

/** Whether no transaction of a batch can have added, split or copied a block. */
function onlyInlineChanges(transactions: readonly Transaction[]): boolean {
  return transactions.every((tr) =>
    tr.steps.every((step, index) => isInlineStep(step, tr.docs[index] ?? tr.doc)),
  );
}

/**
 * The SDK's `nodeId` extension (same attribute, same plugin) with a fast path for the editor: its plugin
 * walks every block of the document after each change to find missing or repeated ids, which on a
 * 3,000-block plan is the largest cost of a keystroke. Typing cannot add, split or copy a block, so
 * transactions whose steps all stay inside one textblock skip the walk (SPEC.md E8).
 */
export const FastNodeIdAttribute = NodeIdAttribute.extend({
  addProseMirrorPlugins() {
    const plugins = this.parent?.() ?? [];
    return plugins.map((plugin) => {
      const appendTransaction = plugin.spec.appendTransaction;
      if (appendTransaction === undefined) return plugin;
      return new Plugin({
        ...plugin.spec,
        appendTransaction(transactions, oldState, newState) {
          if (onlyInlineChanges(transactions)) return null;
          return appendTransaction.call(plugin, transactions, oldState, newState);
        },
      });
    });
  },
});
