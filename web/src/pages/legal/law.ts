import { SUPPORT_ADDRESS } from './contacts';
import type { LegalDocument } from './terms';

/** Notice under the Act on Specified Commercial Transactions, as label/value rows. */
export const lawEn: LegalDocument = {
  title: 'Notice under the Act on Specified Commercial Transactions',
  updated: '2021/08/30',
  intro: '',
  sections: [
    { title: 'Business name', body: ['Topline Inc.'] },
    { title: 'Representative', body: ['Representative Director, Topline Inc.'] },
    { title: 'Address', body: ['1-2-3 Marunouchi, Chiyoda-ku, Tokyo 100-0005, Japan'] },
    { title: 'Contact', body: [`${SUPPORT_ADDRESS} (phone number disclosed without delay on request)`] },
    {
      title: 'Price',
      body: [
        'Shown on the pricing page (tax included). Basic ¥9,980 per month, or ¥8,483 per month billed yearly; Team ¥14,980 per month, or ¥12,733 per month billed yearly.',
      ],
    },
    {
      title: 'Fees other than the price',
      body: ['Consumption tax (included in the price), communication fees, and credit card fees.'],
    },
    { title: 'Payment method', body: ['Credit card only.'] },
    { title: 'Payment deadline', body: ['Depends on the terms of the card company.'] },
    { title: 'Start of service', body: ['Available immediately after the application is accepted.'] },
    {
      title: 'Cancellation and returns',
      body: [
        'Because of the nature of the service, purchases cannot be cancelled and fees are not refunded. A subscription can be cancelled at any time and stays usable until the end of the billing period.',
      ],
    },
  ],
};

export const lawJa: LegalDocument = {
  title: '特定商取引法に基づく表記',
  updated: '2021/08/30',
  intro: '',
  sections: [
    { title: '販売業者', body: ['Topline株式会社'] },
    { title: '代表者', body: ['Topline株式会社 代表取締役'] },
    { title: '所在地', body: ['〒100-0005 東京都千代田区丸の内1-2-3'] },
    { title: 'お問い合わせ', body: [`${SUPPORT_ADDRESS}（電話番号はご請求があれば遅滞なく開示します）`] },
    {
      title: '販売価格',
      body: [
        '料金ページに記載（税込）。Basic 月額9,980円、年払いの場合は月額8,483円。Team 月額14,980円、年払いの場合は月額12,733円。',
      ],
    },
    { title: '商品代金以外の必要料金', body: ['消費税（価格に含む）、通信料、クレジットカード手数料。'] },
    { title: 'お支払方法', body: ['クレジットカードのみ。'] },
    { title: 'お支払時期', body: ['カード会社の規約に準じます。'] },
    { title: 'サービス提供時期', body: ['お申込みの承諾後、ただちにご利用いただけます。'] },
    {
      title: 'キャンセル・返品',
      body: [
        'サービスの性質上、購入の取消しおよび返金はできません。契約はいつでも解約でき、請求期間の終了までご利用いただけます。',
      ],
    },
  ],
};
