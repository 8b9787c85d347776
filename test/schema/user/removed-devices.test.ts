// removeDevice names the removed device by Device.id (in either ID format), so a cached device list
// drops it by that ID alone; other user writes name none, and selecting it is the only reason for
// the extra profile read.
import { describe, expect, it } from 'vitest';
import { useStack } from '../../helpers/stack';
import { loginOnDevice, tokenOf } from '../../helpers/users';

const stack = useStack();

const FORMATS = [
  ['service IDs', {}],
  ['global IDs', { 'x-id-format': 'global' }],
] as const;

describe('removeDevice', () => {
  for (const [format, headers] of FORMATS) {
    it(`answers removedDeviceIds: the Device.id the device list showed (${format})`, async () => {
      const u = await stack.emu.user();
      await loginOnDevice(stack, u, 'phone');
      const as = { ...tokenOf(u), ...headers };
      const before = await stack.gql<{ me: { devices: { nodes: { id: string; deviceSn: number }[] } } }>(
        '{ me { devices { nodes { id deviceSn } } } }',
        {},
        as,
      );
      const phone = before.data!.me.devices.nodes.find((d) => d.deviceSn === 1)!;
      const got = await stack.gql('mutation { removeDevice(input: { deviceSn: 1 }) { ok removedDeviceIds } }', {}, as);
      expect(got).toEqual({ data: { removeDevice: { ok: true, removedDeviceIds: [phone.id] } } });
    });
  }

  it('reads nothing more unless removedDeviceIds is selected; other user writes answer it empty', async () => {
    const u = await stack.emu.user();
    await loginOnDevice(stack, u, 'phone');
    stack.emu.mark();
    await stack.gql('mutation { removeDevice(input: { deviceSn: 1 }) { ok } }', {}, tokenOf(u));
    expect(stack.emu.calls().map((c) => c.endpoint)).toEqual(['DELETE /user/device/remove']);
    const other = await stack.gql('mutation { setNickname(input: { nickName: "Nia" }) { ok removedDeviceIds } }', {}, tokenOf(u));
    expect(other).toEqual({ data: { setNickname: { ok: true, removedDeviceIds: [] } } });
  });
});
