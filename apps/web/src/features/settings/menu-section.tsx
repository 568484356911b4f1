/**
 * Admin → Settings → Menu (docs/features/site-and-admin-tools.md#the-menu): the order of the site's
 * features in the header, the phone menu and the footer, and which they show. Up and Down move a
 * feature (the moved button keeps the focus, so a keyboard user can press it again); the switch
 * shows or hides it. Save sends the whole list; the site configuration refetches, so the menus here
 * change at once.
 */
import { useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { toast } from 'react-toastify';
import { siteEndpoints } from '@kickback/common/http/site';
import { HEADER_INLINE_ITEMS, menuFeatures, type MenuEntry } from '@kickback/common/site-menu';
import { useSite } from '../../shared/site-context';
import { useEndpointMutation } from '../../lib/query';

const featureOf = (id: MenuEntry['id']) => menuFeatures.find((f) => f.id === id)!;

export default function MenuSection() {
  const site = useSite();
  const [menu, setMenu] = useState<MenuEntry[]>(() => site.menu.map((e) => ({ ...e })));
  const [saved, setSaved] = useState(site.menu);
  const buttons = useRef(new Map<string, HTMLButtonElement | null>());
  const save = useEndpointMutation(siteEndpoints.updateMenu, { invalidates: [siteEndpoints.config] });
  const dirty = JSON.stringify(menu) !== JSON.stringify(saved);

  const move = (index: number, by: -1 | 1) => {
    const to = index + by;
    if (to < 0 || to >= menu.length) return;
    const next = [...menu];
    const [entry] = next.splice(index, 1);
    next.splice(to, 0, entry!);
    setMenu(next);
    // Keep the focus on the same button of the moved row (or its other one at an end of the list).
    const edge = (by === -1 && to === 0) || (by === 1 && to === menu.length - 1);
    const key = `${entry!.id}:${edge ? (by === -1 ? 'down' : 'up') : by === -1 ? 'up' : 'down'}`;
    requestAnimationFrame(() => buttons.current.get(key)?.focus());
  };

  const submit = async () => {
    try {
      const data = await save.mutateAsync({ body: { menu } });
      toast.success(data.message);
      setSaved(data.site.menu);
      setMenu(data.site.menu.map((e) => ({ ...e })));
    } catch {
      // The API wrapper showed why.
    }
  };

  // Where each shown feature lands in the header: its rank among the shown ones.
  const shownRank = new Map(menu.filter((e) => e.shown).map((e, i) => [e.id, i + 1]));
  return (
    <section className="kb-card p-3 mb-3" aria-labelledby="kb-settings-menu">
      <h2 className="h5" id="kb-settings-menu">
        Menu
      </h2>
      <p className="text-body-secondary small">
        The site&apos;s pages in the header, the phone menu and the footer, in this order. On a wide screen the header
        shows the first {HEADER_INLINE_ITEMS} shown ones and puts the rest under More. The pages stay open to anyone
        with the link when hidden here.
      </p>
      <ol className="list-unstyled kb-menu-editor mb-3">
        {menu.map((entry, index) => {
          const feature = featureOf(entry.id);
          const rank = shownRank.get(entry.id);
          const place = rank === undefined ? null : rank <= HEADER_INLINE_ITEMS ? 'In the header bar' : 'Under More';
          return (
            <li key={entry.id} className="kb-menu-row" data-testid={`menu-${entry.id}`}>
              <span className="kb-menu-pos" aria-hidden>
                {index + 1}.
              </span>
              <span className="kb-menu-label">
                <strong>{feature.label}</strong> <span className="text-body-secondary small">{feature.path}</span>
                {place ? <span className="d-block small text-body-secondary">{place}</span> : null}
              </span>
              <Form.Check
                type="switch"
                role="switch"
                id={`kb-menu-shown-${entry.id}`}
                label="Shown"
                aria-label={`Shown: ${feature.label}`}
                checked={entry.shown}
                onChange={(e) =>
                  setMenu(menu.map((m) => (m.id === entry.id ? { ...m, shown: e.currentTarget.checked } : m)))
                }
              />
              <span className="d-inline-flex gap-1">
                <Button
                  size="sm"
                  variant="outline-light"
                  ref={(el: HTMLButtonElement | null) => {
                    buttons.current.set(`${entry.id}:up`, el);
                  }}
                  disabled={index === 0}
                  aria-label={`Move ${feature.label} up`}
                  onClick={() => move(index, -1)}
                >
                  ↑ Up
                </Button>
                <Button
                  size="sm"
                  variant="outline-light"
                  ref={(el: HTMLButtonElement | null) => {
                    buttons.current.set(`${entry.id}:down`, el);
                  }}
                  disabled={index === menu.length - 1}
                  aria-label={`Move ${feature.label} down`}
                  onClick={() => move(index, 1)}
                >
                  ↓ Down
                </Button>
              </span>
            </li>
          );
        })}
      </ol>
      <div className="d-flex gap-2">
        <Button onClick={() => void submit()} disabled={!dirty || save.isPending}>
          Save menu
        </Button>
        <Button variant="outline-light" disabled={!dirty} onClick={() => setMenu(saved.map((e) => ({ ...e })))}>
          Undo changes
        </Button>
      </div>
    </section>
  );
}
