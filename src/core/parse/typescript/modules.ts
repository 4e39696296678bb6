// Pass 1, module bindings: ES `import` / `export` statements (named, default, namespace, star,
// `export =`), CommonJS `require(…)` imports and `module.exports` / `exports.x` assignments, which may
// define what they export. Everything that makes ImportBinding and ExportBinding rows.
import type { Node } from 'web-tree-sitter';
import { FUNCTION_VALUES, stripComments, unquote } from './syntax';
import { Declarations } from './declarations';

export abstract class ModuleBindings extends Declarations {
  protected onImport(node: Node): void {
    const source = node.childForFieldName('source');
    const line = node.startPosition.row;
    const scope = this.functionScope(node.startIndex);
    let module = source ? unquote(this.text(source)) : '';
    let bound = false;
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === 'import_clause') {
        for (const part of child.namedChildren) {
          if (!part) continue;
          if (part.type === 'identifier') {
            this.skipStarts.add(part.startIndex);
            this.imports.push({ local: this.text(part), module, imported: 'default', line, scope });
            bound = true;
          } else if (part.type === 'namespace_import') {
            const id = part.firstNamedChild;
            if (id) {
              this.skipStarts.add(id.startIndex);
              this.imports.push({ local: this.text(id), module, imported: null, line, scope });
              bound = true;
            }
          } else if (part.type === 'named_imports') {
            for (const spec of part.namedChildren) {
              if (!spec || spec.type !== 'import_specifier') continue;
              const nameNode = spec.childForFieldName('name');
              const alias = spec.childForFieldName('alias');
              if (!nameNode) continue;
              const local = alias ?? nameNode;
              this.skipStarts.add(local.startIndex);
              // Each name on its own line (`import {\n  a,\n  b,\n} from`): the line that binds it, which per-line context asks about.
              this.imports.push({ local: this.text(local), module, imported: unquote(this.text(nameNode)), line: spec.startPosition.row, scope });
              bound = true;
            }
          }
        }
      } else if (child.type === 'import_require_clause') {
        const id = child.firstNamedChild;
        const req = child.childForFieldName('source');
        if (req) module = unquote(this.text(req));
        if (id && id.type === 'identifier') {
          this.skipStarts.add(id.startIndex);
          this.imports.push({ local: this.text(id), module, imported: null, line, scope });
          bound = true;
        }
      }
    }
    if (!bound && module) this.imports.push({ local: '', module, imported: null, line, scope });
  }

  protected onExport(node: Node): void {
    let isDefault = false;
    let star = false;
    let hasEquals = false;
    let source: string | undefined;
    let clause: Node | null = null;
    let nsExport: Node | null = null;
    let declaration: Node | null = null;
    let value: Node | null = null;
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i);
      if (!child) continue;
      const field = node.fieldNameForChild(i);
      if (field === 'declaration') declaration = child;
      else if (field === 'value') value = child;
      else if (field === 'source') source = unquote(this.text(child));
      else if (child.type === 'default') isDefault = true;
      else if (child.type === '*') star = true;
      else if (child.type === '=') hasEquals = true;
      else if (child.type === 'export_clause') clause = child;
      else if (child.type === 'namespace_export') nsExport = child;
      else if (hasEquals && child.isNamed && child.type !== 'comment' && !value) value = child;
    }
    if (declaration) {
      if (isDefault) this.defaultDecls.add(declaration.startIndex);
      return;
    }
    if (clause) {
      for (const spec of clause.namedChildren) {
        if (!spec || spec.type !== 'export_specifier') continue;
        const nameNode = spec.childForFieldName('name');
        const alias = spec.childForFieldName('alias');
        if (!nameNode) continue;
        const name = unquote(this.text(nameNode));
        const exported = alias ? unquote(this.text(alias)) : name;
        this.skipStarts.add(nameNode.startIndex);
        if (source !== undefined) this.exports.push({ exported, from: source, imported: name });
        else {
          this.exports.push({ exported, local: name });
          this.exportNames.add(name);
        }
      }
      return;
    }
    if (nsExport && source !== undefined) {
      const id = nsExport.lastNamedChild;
      if (id) this.exports.push({ exported: unquote(this.text(id)), from: source, imported: null });
      return;
    }
    if (star && source !== undefined) {
      this.exports.push({ exported: '*', from: source, imported: '*' });
      return;
    }
    if (value && (isDefault || hasEquals)) this.defaultValue(value, node);
  }

  /** `export default <expr>`, `export = <expr>`, `module.exports = <expr>`. */
  private defaultValue(value: Node, statement: Node): void {
    const type = value.type;
    if (type === 'identifier') {
      this.skipStarts.add(value.startIndex);
      const local = this.text(value);
      this.exports.push({ exported: 'default', local });
      this.exportNames.add(local);
    } else if (type === 'class') {
      const nameNode = value.childForFieldName('name');
      this.onClass(value, value, null);
      if (nameNode) this.exports.push({ exported: 'default', local: this.text(nameNode) });
      this.lastDefined().exportedSelf = true;
    } else if (FUNCTION_VALUES.has(type)) {
      const nameNode = type === 'arrow_function' ? null : value.childForFieldName('name');
      const body = value.childForFieldName('body');
      const name = nameNode ? this.text(nameNode) : 'default';
      this.define('Function', name, value, this.header(value, body ? body.startIndex : value.endIndex), this.docOf(statement), { exportedSelf: true });
      if (nameNode) this.exports.push({ exported: 'default', local: name });
    } else {
      const text = this.text(value);
      const prefix = this.src.slice(statement.startIndex, value.startIndex).trim();
      const signature = text.length <= 120 && !text.includes('\n') ? `${prefix} ${text}` : `${prefix} …`;
      this.define('GlobalVariable', 'default', value, signature, this.docOf(statement), { exportedSelf: true });
    }
  }

  protected onRequireCall(call: Node): void {
    const callee = call.childForFieldName('function');
    if (!callee || callee.type !== 'identifier' || callee.endIndex - callee.startIndex !== 7) return;
    const args = call.childForFieldName('arguments');
    if (args && args.type === 'arguments' && args.namedChildCount === 1 && args.firstNamedChild?.type === 'string') this.onRequire(call, args.firstNamedChild);
  }

  /** `const x = require('m')`, `const { a, b: c } = require('m')`, `const y = require('m').y`, `require('m')`. */
  private onRequire(call: Node, str: Node): void {
    const module = unquote(this.text(str));
    const line = call.startPosition.row;
    const scope = this.functionScope(call.startIndex);
    let parent = this.parents.of(call);
    let imported: string | null = null;
    if (parent && parent.type === 'member_expression') {
      const prop = parent.childForFieldName('property');
      imported = prop ? this.text(prop) : null;
      parent = this.parents.of(parent);
    }
    if (parent && parent.type === 'variable_declarator') {
      const nameNode = parent.childForFieldName('name');
      if (nameNode?.type === 'identifier') {
        this.skipStarts.add(nameNode.startIndex);
        this.imports.push({ local: this.text(nameNode), module, imported, line, scope });
        return;
      }
      if (nameNode?.type === 'object_pattern' && imported === null) {
        for (const part of nameNode.namedChildren) {
          if (!part) continue;
          if (part.type === 'shorthand_property_identifier_pattern') {
            const name = this.text(part);
            this.imports.push({ local: name, module, imported: name, line, scope });
          } else if (part.type === 'pair_pattern') {
            const key = part.childForFieldName('key');
            const value = part.childForFieldName('value');
            if (key && value?.type === 'identifier') {
              this.skipStarts.add(value.startIndex);
              this.imports.push({ local: this.text(value), module, imported: unquote(this.text(key)), line, scope });
            }
          }
        }
        return;
      }
    }
    this.imports.push({ local: '', module, imported: null, line, scope });
  }

  /** `module.exports = …`, `module.exports.x = …`, `exports.x = …`. */
  protected onCommonJsExport(left: Node): void {
    const start = left.startIndex;
    if (!this.src.startsWith('exports', start) && !this.src.startsWith('module', start)) return;
    const lhs = this.text(left).replace(/\s+/g, '');
    const assignment = this.parents.of(left);
    const right = assignment?.childForFieldName('right');
    const statement = assignment ? this.parents.of(assignment) : null;
    if (!right || !statement) return;
    if (lhs === 'module.exports') {
      if (right.type === 'object') this.commonJsObject(right);
      else if (right.type === 'call_expression' && /^require\s*\(/.test(this.text(right))) {
        const str = right.childForFieldName('arguments')?.firstNamedChild;
        if (str && str.type === 'string') this.exports.push({ exported: '*', from: unquote(this.text(str)), imported: '*' });
      } else this.defaultValue(right, statement);
      return;
    }
    const m = /^(?:module\.)?exports\.([\p{ID_Start}$_][\p{ID_Continue}$]*)$/u.exec(lhs);
    if (!m) return;
    const name = m[1];
    if (right.type === 'identifier') {
      const local = this.text(right);
      this.exports.push({ exported: name, local });
      this.exportNames.add(local);
    } else if (FUNCTION_VALUES.has(right.type) || right.type === 'class') {
      const body = right.childForFieldName('body');
      const signature = stripComments(this.src.slice(statement.startIndex, Math.min(body ? body.startIndex : right.endIndex, statement.startIndex + 1000)));
      this.define(right.type === 'class' ? 'Class' : 'Function', name, statement, signature, this.docOf(statement), { role: 'cjs', bodyStart: right.type === 'class' ? body?.startIndex : undefined });
    } else {
      this.define('GlobalVariable', name, statement, this.header(statement, statement.endIndex), this.docOf(statement), { role: 'cjs' });
    }
  }

  private commonJsObject(object: Node): void {
    for (const prop of object.namedChildren) {
      if (!prop) continue;
      if (prop.type === 'shorthand_property_identifier') {
        const name = this.text(prop);
        this.exports.push({ exported: name, local: name });
        this.exportNames.add(name);
      } else if (prop.type === 'pair') {
        const key = prop.childForFieldName('key');
        const value = prop.childForFieldName('value');
        if (!key || !value) continue;
        const name = unquote(this.text(key));
        if (value.type === 'identifier') {
          const local = this.text(value);
          this.exports.push({ exported: name, local });
          this.exportNames.add(local);
        } else if (FUNCTION_VALUES.has(value.type)) {
          const body = value.childForFieldName('body');
          this.define('Function', name, prop, this.header(prop, body ? body.startIndex : prop.endIndex), this.docOf(prop), { role: 'cjs' });
        }
      } else if (prop.type === 'method_definition') {
        const name = this.memberName(prop.childForFieldName('name'));
        const body = prop.childForFieldName('body');
        if (name) this.define('Function', name, prop, this.header(prop, body ? body.startIndex : prop.endIndex), this.docOf(prop), { role: 'cjs' });
      }
    }
  }
}
