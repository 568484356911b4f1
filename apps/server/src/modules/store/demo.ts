/**
 * Demo catalogue (`DEMO_DATA`): a realistic store across four categories, with images shipped in
 * apps/web/public/store (they work offline) and a few limited-stock items. Runs only on a database
 * with no products yet.
 */
import { count } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { products } from '../../db/schema/store';

type DemoProduct = [name: string, price: string, image: string, category: string, stock: number | null];

export const demoCatalogue: DemoProduct[] = [
  ['AK-47 | Neon Rider', '12000', 'ak-neon-rider', 'Skins', null],
  ['Karambit | Fade', '85000', 'karambit-fade', 'Skins', 1],
  ['AWP | Asiimov', '30000', 'awp-asiimov', 'Skins', 2],
  ['Glock-18 | Water Elemental', '2500', 'glock-water', 'Skins', null],
  ['Steam Gift Card $10', '4000', 'steam-10', 'Gift cards', null],
  ['Steam Gift Card $50', '19000', 'steam-50', 'Gift cards', 5],
  ['Amazon Gift Card $25', '10000', 'amazon-25', 'Gift cards', null],
  ['Kickback Hoodie', '15000', 'hoodie', 'Merch', 20],
  ['Vex Logo Tee', '5000', 'tee', 'Merch', null],
  ['Vex Snapback Cap', '6000', 'cap', 'Merch', null],
  ['XL Desk Mousepad', '4500', 'mousepad', 'Merch', null],
  ['Play a match with Vex', '25000', 'play-with-vex', 'Experiences', 3],
  ['Shoutout on stream', '1500', 'shoutout', 'Experiences', null],
  ['Pick the next slot', '3000', 'pick-slot', 'Experiences', null],
  ['1-on-1 coaching hour', '40000', 'coaching', 'Experiences', 2],
  ['VIP for a day on Discord', '2000', 'vip-day', 'Experiences', null],
];

export async function seedStore(app: FastifyInstance): Promise<void> {
  const [existing] = await app.db.select({ n: count() }).from(products);
  if ((existing?.n ?? 0) > 0) return;
  await app.db.insert(products).values(
    demoCatalogue.map(([name, price, image, category, stock]) => ({
      name,
      price,
      imageUrl: `/store/${image}.svg`,
      category,
      stock,
    })),
  );
  app.log.info({ products: demoCatalogue.length }, 'demo store catalogue seeded');
}
